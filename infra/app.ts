import { App } from 'aws-cdk-lib';
import { settingsFromContext } from './context.ts';
import { checkWithNag } from './nag.ts';
import { SessionManagerStack } from './stack.ts';

const app = new App();
const settings = settingsFromContext(app);

const stack = new SessionManagerStack(app, settings.prefix, {
  ...settings,
  stackName: settings.prefix,
  description:
    'Multi-session manager: HTTP API, queue consumers, connection host on ECS, SSE load balancer, tables, media bucket, alarms',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// AwsSolutions rules: an unsuppressed error fails the synth (infra/nag.ts holds the reasons).
checkWithNag(stack);

app.synth();
