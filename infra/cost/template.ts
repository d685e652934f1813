/*
 * Reading the synthesised template: the resources, numbers and settings the estimate prices, so
 * the estimate follows the stack as it is, not as it was described.
 */

/** A synthesised CloudFormation template, as much of it as the estimate reads. */
export interface Template {
  Parameters?: Record<string, { Default?: unknown }>;
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** The resources of one type, with their logical ids. */
export function resourcesOf(t: Template, type: string) {
  return Object.entries(t.Resources)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => ({ id, props: r.Properties ?? {} }));
}

/** A number in the template, or a `Ref` to a parameter's default. */
function numberOf(t: Template, v: unknown): number {
  if (typeof v === 'number' || typeof v === 'string') return Number(v);
  const ref = (v as { Ref?: string } | undefined)?.Ref;
  const d = ref ? t.Parameters?.[ref]?.Default : undefined;
  if (d === undefined) throw new Error(`cannot read a number from ${JSON.stringify(v)}`);
  return Number(d);
}

const refId = (v: unknown) => (v as { Ref?: string }).Ref ?? '';

interface HostService {
  tasks: number;
  /** The units of ownership the hosts share (the container's LEASE_SHARDS). */
  leaseShards: number;
  vcpu: number;
  gb: number;
  arch: 'arm64' | 'x86_64';
  publicIp: boolean;
}

export function hostServices(t: Template): HostService[] {
  return resourcesOf(t, 'AWS::ECS::Service').map(({ props }) => {
    const task = t.Resources[refId(props.TaskDefinition)]?.Properties ?? {};
    const platform = task.RuntimePlatform as { CpuArchitecture?: string } | undefined;
    const net = props.NetworkConfiguration as
      | { AwsvpcConfiguration?: { AssignPublicIp?: string } }
      | undefined;
    return {
      // Auto-scaled services have no DesiredCount: idle, they run their scalable target's minimum.
      tasks: numberOf(t, props.DesiredCount ?? minCapacityOf(t) ?? 1),
      leaseShards: Number(envOf(task).LEASE_SHARDS ?? 0),
      vcpu: numberOf(t, task.Cpu) / 1024,
      gb: numberOf(t, task.Memory) / 1024,
      arch: platform?.CpuArchitecture === 'ARM64' ? 'arm64' : 'x86_64',
      publicIp: net?.AwsvpcConfiguration?.AssignPublicIp === 'ENABLED',
    };
  });
}

/** The minimum of the stack's ECS scalable target, if it has one. */
function minCapacityOf(t: Template): unknown {
  return resourcesOf(t, 'AWS::ApplicationAutoScaling::ScalableTarget').find(
    ({ props }) => props.ScalableDimension === 'ecs:service:DesiredCount',
  )?.props.MinCapacity;
}

/** The first container's environment of a task definition. */
function envOf(task: Record<string, unknown>): Record<string, unknown> {
  const containers = (task.ContainerDefinitions ?? []) as Array<{
    Environment?: Array<{ Name: string; Value: unknown }>;
  }>;
  return Object.fromEntries((containers[0]?.Environment ?? []).map((e) => [e.Name, e.Value]));
}

/** Command queues the hosts poll themselves: FIFO work queues (with a dead-letter queue). */
export function hostPolledQueues(t: Template): number {
  return resourcesOf(t, 'AWS::SQS::Queue').filter(
    ({ props }) => props.FifoQueue === true && props.RedrivePolicy !== undefined,
  ).length;
}

/** The service's functions' memory by SERVICE_NAME (CDK's own handlers carry none). */
export function functionMemoryGb(t: Template): Map<string, number> {
  const out = new Map<string, number>();
  for (const { props } of resourcesOf(t, 'AWS::Lambda::Function')) {
    const vars = (props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    const name = vars?.SERVICE_NAME;
    if (typeof name === 'string') out.set(name, Number(props.MemorySize ?? 128) / 1024);
  }
  return out;
}
