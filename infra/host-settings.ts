/**
 * The connection host's size and network: the settings that decide most of the stack's idle cost
 * (`npm run cost`; docs/deploy.md, "Cost"). Each default is the cheaper choice that keeps the
 * service's reliability; the other is one `-c` away.
 */
export interface HostSettings {
  /**
   * `false` (default): the tasks run in the public subnets with a public address of their own, and
   * their security group accepts only the load balancer. `true`: private subnets behind one NAT
   * gateway (about $37 a month more), for one fixed outbound address (`-c natGateway=true`).
   */
  natGateway: boolean;
  /** The tasks' CPU (and the image's platform): `arm64` (Graviton, default) or `x86_64` (`-c hostArchitecture=...`). */
  architecture: 'arm64' | 'x86_64';
  /** Fargate CPU units per task (`-c hostCpu=...`: 256, 512, 1024, 2048, 4096). */
  cpu: number;
  /** Memory per task, MiB (`-c hostMemory=...`), a size Fargate offers for that CPU. */
  memoryMiB: number;
  /** Container Insights on the cluster (`-c containerInsights=true`): per-task graphs, about $9 a month. */
  containerInsights: boolean;
}

/**
 * Half a vCPU and 1 GB per task: an empty host takes about 175 MB and a Baileys session about 7 MB
 * (docs/benchmarks.md), and each task must carry the sessions of a failed peer too, so two such
 * tasks hold about 80 linked sessions with room to spare. More sessions: `hostMemory` (and `hostCpu`).
 */
export const HOST_DEFAULTS: HostSettings = {
  natGateway: false,
  architecture: 'arm64',
  cpu: 512,
  memoryMiB: 1024,
  containerInsights: false,
};

/** Fargate's memory choices (MiB) for each CPU size. */
const range = (from: number, to: number, step: number) =>
  Array.from({ length: (to - from) / step + 1 }, (_, i) => from + i * step);
export const FARGATE_SIZES: Record<number, number[]> = {
  256: [512, 1024, 2048],
  512: range(1024, 4096, 1024),
  1024: range(2048, 8192, 1024),
  2048: range(4096, 16384, 1024),
  4096: range(8192, 30720, 1024),
};

/** The `-c` names of the host settings. */
export const HOST_SETTING_NAMES = [
  'natGateway',
  'hostArchitecture',
  'hostCpu',
  'hostMemory',
  'containerInsights',
];

/** Reads the host settings from `-c` values (strings, or undefined when not given). */
export function hostSettingsFrom(get: (key: string) => string | undefined): HostSettings {
  const flag = (key: string, dflt: boolean) => {
    const v = get(key);
    if (v === undefined) return dflt;
    if (v !== 'true' && v !== 'false') throw new Error(`context ${key} "${v}" must be true or false`);
    return v === 'true';
  };
  const architecture = get('hostArchitecture') ?? HOST_DEFAULTS.architecture;
  if (architecture !== 'arm64' && architecture !== 'x86_64')
    throw new Error(`context hostArchitecture "${architecture}" must be arm64 or x86_64`);
  const cpu = Number(get('hostCpu') ?? HOST_DEFAULTS.cpu);
  const sizes = FARGATE_SIZES[cpu];
  if (!sizes)
    throw new Error(`context hostCpu "${cpu}" must be one of ${Object.keys(FARGATE_SIZES).join(', ')}`);
  const memoryMiB = Number(
    get('hostMemory') ?? (cpu === HOST_DEFAULTS.cpu ? HOST_DEFAULTS.memoryMiB : sizes[0]),
  );
  if (!sizes.includes(memoryMiB))
    throw new Error(
      `context hostMemory "${memoryMiB}" must be one of ${sizes.join(', ')} with hostCpu ${cpu}`,
    );
  return {
    natGateway: flag('natGateway', HOST_DEFAULTS.natGateway),
    architecture,
    cpu,
    memoryMiB,
    containerInsights: flag('containerInsights', HOST_DEFAULTS.containerInsights),
  };
}
