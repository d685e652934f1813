import { appendFileSync } from 'node:fs';
import type { Arrivals } from './arrivals.ts';
import { cpuShares, machineCpu } from './machine-cpu.ts';
import { awsCounts, type Child } from './service-child.ts';
import { pct } from './stats.ts';

/*
 * One step of bench/inbound-throughput.ts's ladder: inject `rate` messages a second for `seconds`,
 * wait for each at the webhook receiver and on the stream, and measure the step as one table row
 * (latencies, duplicates, AWS requests and CPU per delivered message, the machine's load).
 */

/** What every step shares: the service, the sessions and senders, where messages arrive. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface StepRun {
  child: Child;
  inject: (path: string, body: unknown) => Promise<unknown>;
  sessions: string[];
  senders: string[];
  webhook: Arrivals;
  stream: Arrivals;
  /** The next message tag's number (tags are unique over the whole run). */
  seq: number;
}

/**
 * BENCH_TRACE=<file>: one line per message of the step (ms from the step's start, its webhook
 * latency), to tell a stall (slow messages together in time) from queueing spread over the step.
 */
function traceStep(
  file: string,
  rate: number,
  warmUp: boolean,
  start: number,
  sent: Map<string, number>,
  webhook: Arrivals,
): void {
  const lines = [...sent].map(([t, t0]) => {
    const at = webhook.at.get(t);
    return JSON.stringify({
      rate,
      warmUp,
      atMs: Math.round(t0 - start),
      epochMs: Math.round(performance.timeOrigin + t0),
      webhookMs: at === undefined ? null : Math.round(at - t0),
    });
  });
  appendFileSync(file, `${lines.join('\n')}\n`);
}

const summary = (latencies: number[]) => {
  const s = [...latencies].sort((a, b) => a - b);
  return { p50: Math.round(pct(s, 50)), p99: Math.round(pct(s, 99)) };
};

/** Runs one step; answers its row, with what decides whether the rate held. */
export async function runStep(run: StepRun, rate: number, seconds: number, warmUp: boolean) {
  const { counts: before, cpu: cpuBefore } = await awsCounts(run.child);
  const benchCpuBefore = process.cpuUsage();
  const machineBefore = machineCpu();
  const sent = new Map<string, number>();
  const total = rate * seconds;
  const start = performance.now();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const tag = `b${run.seq++}`;
    const slot = i % (run.sessions.length * run.senders.length);
    sent.set(tag, performance.now());
    pending.push(
      run
        .inject('/_sim/inbound', {
          sessionId: run.sessions[slot % run.sessions.length],
          from: run.senders[Math.floor(slot / run.sessions.length) % run.senders.length],
          text: tag,
        })
        .catch((err: unknown) => {
          // Not injected: it counts as not delivered, and the step says so.
          sent.delete(tag);
          console.error(`injection of ${tag} failed: ${String(err)}`);
        }),
    );
  }
  await Promise.all(pending);
  const offered = total / ((performance.now() - start) / 1000);
  const deadline = performance.now() + 30_000;
  const done = () => [...sent.keys()].every((t) => run.webhook.at.has(t) && run.stream.at.has(t));
  while (!done() && performance.now() < deadline) await sleep(100);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const machine = cpuShares(machineBefore, machineCpu());
  const { counts: after, cpu: cpuAfter } = await awsCounts(run.child);
  const lat = (a: Arrivals) =>
    [...sent].flatMap(([t, t0]) => {
      const at = a.at.get(t);
      return at === undefined ? [] : [at - t0];
    });
  const trace = process.env.BENCH_TRACE;
  if (trace) traceStep(trace, rate, warmUp, start, sent, run.webhook);
  const w = summary(lat(run.webhook));
  const s = summary(lat(run.stream));
  const dupes = (a: Arrivals) => [...sent.keys()].filter((t) => (a.seen.get(t) ?? 0) > 1).length;
  const delivered = [...sent.keys()].filter((t) => run.webhook.at.has(t)).length;
  const per = (prefix: string, names: string[]) =>
    names.reduce((n, k) => n + ((after[`${prefix}:${k}`] ?? 0) - (before[`${prefix}:${k}`] ?? 0)), 0) /
    Math.max(1, delivered);
  const row = {
    rate,
    offered: Math.round(offered),
    sent: total,
    webhooks: delivered,
    sse: [...sent.keys()].filter((t) => run.stream.at.has(t)).length,
    dupWebhook: dupes(run.webhook),
    dupSse: dupes(run.stream),
    webhookP50: w.p50,
    webhookP99: w.p99,
    sseP50: s.p50,
    sseP99: s.p99,
    ddbWritesPerMsg: per('dynamodb', [
      'PutItemCommand',
      'UpdateItemCommand',
      'DeleteItemCommand',
      'TransactWriteItemsCommand',
      'BatchWriteItemCommand',
    ]).toFixed(2),
    ddbReadsPerMsg: per('dynamodb', ['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand']).toFixed(2),
    // Items written or read by key (a transaction of 20 is 20): DynamoDB Local's work.
    ddbItemsPerMsg: per('dynamodb', ['items']).toFixed(2),
    // CPU per delivered message, from the start of the step until every message arrived.
    serviceCpuMsPerMsg: ((cpuAfter.service - cpuBefore.service) / Math.max(1, delivered)).toFixed(1),
    dynamoCpuMsPerMsg: ((cpuAfter.dynamodb - cpuBefore.dynamodb) / Math.max(1, delivered)).toFixed(1),
    // This process: injecting, receiving the webhooks and reading the stream (the same two cores).
    benchCpuMsPerMsg: ((benchCpu.user + benchCpu.system) / 1000 / Math.max(1, delivered)).toFixed(1),
    sqsSendsPerMsg: per('sqs', ['SendMessageCommand', 'SendMessageBatchCommand']).toFixed(2),
    sqsDeletesPerMsg: per('sqs', ['DeleteMessageCommand', 'DeleteMessageBatchCommand']).toFixed(2),
    // Every receive, the empty long polls of idle consumers included.
    sqsReceivesPerMsg: per('sqs', ['ReceiveMessageCommand']).toFixed(2),
    // The machine over the step: its two cores' busy share, and the share the hypervisor gave
    // to other machines (steal): what the same code loses on a noisy host.
    machineBusyPct: machine.busyPct,
    stolenPct: machine.stolenPct,
  };
  // BENCH_DETAIL=1: every AWS operation's count per delivered message (where the requests go).
  const detail = Object.fromEntries(
    Object.keys(after)
      .map((k) => [k, ((after[k] ?? 0) - (before[k] ?? 0)) / Math.max(1, delivered)] as const)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => [k, Number(v.toFixed(2))]),
  );
  return { row, total, delivered, webhookP99: w.p99, sseP99: s.p99, detail };
}
