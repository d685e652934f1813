import { readFileSync } from 'node:fs';

/**
 * The machine's CPU time by kind, from the first line of /proc/stat (Linux; undefined elsewhere).
 * On a virtual machine, `steal` is time the hypervisor gave this machine's virtual CPUs to someone
 * else: the "noisy neighbour" that slows every process here without showing in their own CPU time.
 */
export interface MachineCpu {
  busy: number;
  idle: number;
  steal: number;
}

export function machineCpu(): MachineCpu | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      ?.trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    if (!fields || fields.length < 8) return undefined;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
  } catch {
    return undefined;
  }
}

/** Between two readings: the share of the machine's CPU time that was busy here, and that was stolen, in %. */
export function cpuShares(from: MachineCpu | undefined, to: MachineCpu | undefined) {
  if (!from || !to) return { busyPct: 'n/a', stolenPct: 'n/a' };
  const busy = to.busy - from.busy;
  const steal = to.steal - from.steal;
  const total = busy + steal + (to.idle - from.idle);
  const pct = (n: number) => (total > 0 ? ((100 * n) / total).toFixed(0) : 'n/a');
  return { busyPct: pct(busy), stolenPct: pct(steal) };
}
