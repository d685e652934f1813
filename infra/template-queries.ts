import { Match, type Template } from 'aws-cdk-lib/assertions';
import { must } from '#shared/must';

/**
 * For the stack's tests: matches the service's own functions (every one carries SERVICE_NAME), not
 * CDK's deploy-time custom resource handlers, which are functions too.
 */
export const SERVICE_FUNCTION = {
  Properties: { Environment: { Variables: Match.objectLike({ SERVICE_NAME: Match.anyValue() }) } },
};

/** The environment of every one of the service's functions. */
export const functionEnvs = (template: Template): Record<string, unknown>[] =>
  Object.values(template.findResources('AWS::Lambda::Function', SERVICE_FUNCTION)).map(
    (f) => f.Properties.Environment.Variables as Record<string, unknown>,
  );

/** The connection host's environment, as its task definition's container sets it. */
export const hostTaskEnv = (template: Template): Record<string, unknown> => {
  const task = must(Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0], 'the host task');
  const vars = task.Properties.ContainerDefinitions[0].Environment as Array<{ Name: string; Value: unknown }>;
  return Object.fromEntries(vars.map((v) => [v.Name, v.Value]));
};
