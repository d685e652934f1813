import { type CostLine, plural } from './lines.ts';
import { PRICES } from './prices.ts';
import { functionMemoryGb, resourcesOf, type Template } from './template.ts';
import type { MessageFlow } from './usage.ts';

/*
 * The cost estimate's door (scripts/cost.ts, infra/cost/report.ts): the idle cost (idle.ts) and
 * what 1,000 messages of a flow add, priced from the synthesised template.
 */

export { idleCost, type RuntimeFigures } from './idle.ts';
export { type CostLine, table, total } from './lines.ts';
export type { Template } from './template.ts';

/** What 1,000 messages of a flow cost beyond the idle cost, line by line. */
export function perThousand(t: Template, flow: MessageFlow): CostLine[] {
  const memory = functionMemoryGb(t);
  const nat = resourcesOf(t, 'AWS::EC2::NatGateway').length > 0;
  const gbSeconds = flow.invocations.reduce((n, i) => {
    const gb = memory.get(i.service);
    if (gb === undefined) throw new Error(`no function with SERVICE_NAME ${i.service} in the template`);
    return n + i.count * gb * (i.ms / 1000);
  }, 0);
  const invocations = flow.invocations.reduce((n, i) => n + i.count, 0);
  const k = 1000;
  const kb = 1 / (1024 * 1024);
  const lines: CostLine[] = [
    {
      item: 'Lambda',
      basis: `${plural(invocations, 'invocation')}, ${gbSeconds.toFixed(3)} GB-s a message (ARM64)`,
      usd:
        k *
        (gbSeconds * PRICES.lambdaArm64.gbSecond +
          (invocations * PRICES.lambdaArm64.perMillionRequests) / 1e6),
    },
    {
      item: 'API Gateway (HTTP API)',
      basis: `${plural(flow.httpApiRequests, 'request')} a message`,
      usd: (k * flow.httpApiRequests * PRICES.httpApiPerMillion) / 1e6,
    },
    {
      item: 'SQS',
      basis: `${flow.sqsStandard} standard + ${flow.sqsFifo} FIFO requests a message`,
      usd:
        (k * (flow.sqsStandard * PRICES.sqs.perMillionStandard + flow.sqsFifo * PRICES.sqs.perMillionFifo)) /
        1e6,
    },
    {
      item: 'DynamoDB on demand',
      basis: `${flow.dynamoWriteUnits} write units, ${flow.dynamoReadUnits} read units a message`,
      usd:
        (k *
          (flow.dynamoWriteUnits * PRICES.dynamodbOnDemand.perMillionWrites +
            flow.dynamoReadUnits * PRICES.dynamodbOnDemand.perMillionReads)) /
        1e6,
    },
    {
      item: 'S3 PUTs',
      basis: `${plural(flow.s3Puts, 'PUT')} a message`,
      usd: (k * flow.s3Puts * PRICES.s3.perThousandPuts) / 1000,
    },
    {
      item: 'CloudWatch Logs',
      basis: `≈ ${flow.logKb} KB a message`,
      usd: k * flow.logKb * kb * PRICES.cloudwatch.logsIngestedGb,
    },
    {
      item: 'NAT gateway data',
      basis: nat ? `≈ ${flow.hostTrafficKb} KB of host traffic a message` : 'no NAT gateway',
      usd: nat ? k * flow.hostTrafficKb * kb * PRICES.natGateway.gbProcessed : 0,
    },
    {
      item: 'Data out (webhooks)',
      basis: `≈ ${flow.dataOutKb} KB a message`,
      usd: k * flow.dataOutKb * kb * PRICES.dataOutGb,
    },
  ];
  return lines;
}
