import { Match } from 'aws-cdk-lib/assertions';

/**
 * For the stack's tests: matches the service's own functions (every one carries SERVICE_NAME), not
 * CDK's deploy-time custom resource handlers, which are functions too.
 */
export const SERVICE_FUNCTION = {
  Properties: { Environment: { Variables: Match.objectLike({ SERVICE_NAME: Match.anyValue() }) } },
};
