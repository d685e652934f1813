import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../log/logger.ts';
import type { StoredMessage } from '../messages/message.ts';
import { must } from '../must.ts';
import { feedPk, legacyFeedPk, orderKey } from '../store/keys.ts';
import { type FeedEvent, feedStats, nudgeTenantFeed, openFeed } from './feed.ts';
import { REPLAYS_PER_TENANT } from './replay.ts';
import { LOOKBACK_MS, POLL_INTERVAL_MS, SHARDS_REFRESH_MS } from './tenant-poller.ts';

type Row = StoredMessage & { gsi1sk: string };

/** Replay cap of these tests' clients unless a test says otherwise. */
const REPLAY_MAX = 5_000;

/** The tenant feed index, in memory: what `tenantFeed` reads from DynamoDB. */
const feed = vi.hoisted(() => ({
  rows: [] as Array<{ tenantId: string; sessionId: string; gsi1sk: string }>,
  queries: 0,
  /** Partitions the live polls read, in all. */
  partitionReads: 0,
  /** The partitions of each live poll. */
  polls: [] as string[][],
  /** Each tenant's session ids, as the sessions repository answers them. */
  sessions: new Map<string, string[]>(),
  failures: 0,
  /** Replay reads are the ones with a page limit. */
  replayFails: false,
  /** When set, replay reads wait for it, then read. */
  gate: undefined as Promise<void> | undefined,
  /** Replay reads waiting at the gate now, per tenant. */
  atGate: new Map<string, number>(),
}));

/** The live poll: keys and direction of the window in the partitions read, then the messages of the new entries. */
async function entries(reads: Array<{ pk: string; after: string }>) {
  feed.queries++;
  feed.partitionReads += reads.length;
  feed.polls.push(reads.map((q) => q.pk));
  if (feed.failures > 0) {
    feed.failures--;
    throw new Error('DynamoDB unavailable');
  }
  return feed.rows
    .filter((r) => reads.some((q) => q.pk === feedPk(r.tenantId, r.sessionId) && r.gsi1sk > q.after))
    .sort((a, b) => (a.gsi1sk < b.gsi1sk ? -1 : 1))
    .map((r) => ({ pk: r.tenantId, sk: r.gsi1sk, gsi1sk: r.gsi1sk, direction: (r as Row).direction }));
}

vi.mock('../sessions/repository.ts', () => ({
  listSessionIds: async (tenantId: string) => feed.sessions.get(tenantId) ?? ['ses_1'],
}));

vi.mock('../messages/repository.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../messages/repository.ts')>()),
  feedEntries: entries,
  feedMessages: async (keys: Array<{ gsi1sk: string }>) =>
    keys.flatMap((k) => feed.rows.filter((r) => r.gsi1sk === k.gsi1sk)),
  tenantFeed: async (tenantId: string, opt: { after?: string; limit?: number } = {}) => {
    feed.queries++;
    if (opt.limit !== undefined && feed.gate) {
      feed.atGate.set(tenantId, (feed.atGate.get(tenantId) ?? 0) + 1);
      await feed.gate;
      feed.atGate.set(tenantId, (feed.atGate.get(tenantId) ?? 0) - 1);
    }
    if (opt.limit !== undefined && feed.replayFails) throw new Error('DynamoDB unavailable');
    if (feed.failures > 0) {
      feed.failures--;
      throw new Error('DynamoDB unavailable');
    }
    const after = opt.after ?? '';
    return feed.rows
      .filter((r) => r.tenantId === tenantId && r.gsi1sk > after)
      .sort((a, b) => (a.gsi1sk < b.gsi1sk ? -1 : 1))
      .slice(0, opt.limit);
  },
}));

/** A session id whose feed shard is not that of `ses_1`. */
const otherShardSession =
  ['ses_2', 'ses_3', 'ses_4', 'ses_5'].find((id) => feedPk('t', id) !== feedPk('t', 'ses_1')) ?? 'ses_2';

let seq = 0;
/** Commits a message to the feed (stamped now unless `at` says otherwise). */
function commit(
  tenantId: string,
  text: string,
  opt: { at?: number; outbound?: boolean; sessionId?: string } = {},
): Row {
  const m: StoredMessage = {
    tenantId,
    sessionId: opt.sessionId ?? 'ses_1',
    messageId: `M${String(++seq).padStart(5, '0')}`,
    direction: opt.outbound ? 'outbound' : 'inbound',
    chatId: '15550001111',
    senderPhone: '15550001111',
    senderName: 'Bob',
    kind: 'text',
    text,
    status: 'delivered',
    timestampMs: opt.at ?? Date.now(),
    statusAt: Date.now(),
  };
  const row = { ...m, gsi1sk: orderKey(m.timestampMs, m.messageId) };
  feed.rows.push(row);
  return row;
}

const closers: Array<() => void> = [];

async function client(tenantId: string, lastEventId?: string) {
  const got: FeedEvent[] = [];
  const { close } = await openFeed(tenantId, lastEventId, (e) => got.push(e), REPLAY_MAX);
  closers.push(close);
  return { got, close, texts: () => got.map((e) => JSON.parse(e.data).message as string) };
}

/** Runs the pollers for `ms` of fake time. */
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
  feed.rows = [];
  feed.queries = 0;
  feed.partitionReads = 0;
  feed.polls = [];
  feed.sessions.clear();
  feed.failures = 0;
  feed.replayFails = false;
  feed.gate = undefined;
  feed.atGate.clear();
});

afterEach(() => {
  for (const close of closers.splice(0)) close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('live feed', () => {
  it('sends inbound messages committed after the client subscribed, once each, as SSE frames', async () => {
    commit('t1', 'already there', { at: Date.now() - 500 });
    const c = await client('t1');

    const m = commit('t1', 'hello');
    commit('t1', 'our own reply', { outbound: true });
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['hello']);

    const [e] = c.got;
    expect(e?.id).toBe(m.gsi1sk);
    expect(JSON.parse(e?.data ?? '')).toMatchObject({
      event: 'message:inbound',
      sessionId: 'ses_1',
      sender: '15550001111',
      sender_name: 'Bob',
      message: 'hello',
      timestamp: m.timestampMs,
    });
    expect(new TextDecoder().decode(e?.frame)).toBe(`id: ${e?.id}\ndata: ${e?.data}\n\n`);

    // Later polls read the look-back window again; what was sent is not sent twice.
    await elapse(5 * POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['hello']);
  });

  it('sends a message committed late but inside the look-back window', async () => {
    const c = await client('t1');
    commit('t1', 'newer');
    await elapse(POLL_INTERVAL_MS);
    commit('t1', 'older, committed after', { at: Date.now() - LOOKBACK_MS / 2 });
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['newer', 'older, committed after']);
  });

  it('a message stamped ahead of the clock does not hide the ones after it', async () => {
    const c = await client('t1');
    commit('t1', 'from a fast clock', { at: Date.now() + 60_000 });
    await elapse(POLL_INTERVAL_MS);
    commit('t1', 'on time');
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['from a fast clock', 'on time']);
  });

  it('a nudge polls at once instead of at the next tick', async () => {
    const c = await client('t1');
    await elapse(1);
    commit('t1', 'stored here');
    await elapse(1);
    expect(c.got).toHaveLength(0);
    nudgeTenantFeed('t1');
    await elapse(1);
    expect(c.texts()).toEqual(['stored here']);
  });

  it('messages offered by the process that stored them go out at once, without a read, and never twice', async () => {
    const c = await client('t1');
    await elapse(1);
    const reads = feed.queries;
    const a = commit('t1', 'first of a run');
    const b = commit('t1', 'second of a run');
    const out = commit('t1', 'outbound', { outbound: true });
    nudgeTenantFeed('t1', [a, b, out]);
    await elapse(0);
    expect(c.texts()).toEqual(['first of a run', 'second of a run']);
    expect(feed.queries).toBe(reads);
    // The next polls find them in the window, already sent; a message from elsewhere still comes.
    commit('t1', 'stored by another process');
    await elapse(3 * POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['first of a run', 'second of a run', 'stored by another process']);
    nudgeTenantFeed('t1', [b]);
    await elapse(1);
    expect(c.got).toHaveLength(3);
  });

  it('keeps polling through failures, logging the first of a streak only', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const c = await client('t1');
    feed.failures = 3;
    commit('t1', 'after the outage');
    await elapse(3 * POLL_INTERVAL_MS);
    expect(c.got).toHaveLength(0);
    expect(warn).toHaveBeenCalledTimes(1);
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['after the outage']);
  });

  it("reads only the shards of the tenant's sessions, and the unsharded partition once a refresh", async () => {
    feed.sessions.set('t1', ['ses_1', otherShardSession]);
    await client('t1');
    feed.polls = [];
    await elapse(2 * SHARDS_REFRESH_MS);
    const shards = [feedPk('t1', 'ses_1'), feedPk('t1', otherShardSession)].sort();
    expect(feed.polls.length).toBeGreaterThan(2 * (SHARDS_REFRESH_MS / POLL_INTERVAL_MS) - 4);
    for (const pks of feed.polls)
      expect(pks.filter((pk) => pk !== legacyFeedPk('t1')).sort()).toEqual(shards);
    const withLegacy = feed.polls.filter((pks) => pks.includes(legacyFeedPk('t1')));
    expect(withLegacy.length).toBeGreaterThanOrEqual(1);
    expect(withLegacy.length).toBeLessThanOrEqual(2);
  });

  it('a session added while the stream is open: its messages go out from its first, found at the next refresh', async () => {
    feed.sessions.set('t1', ['ses_1']);
    const c = await client('t1');
    await elapse(POLL_INTERVAL_MS);
    feed.sessions.set('t1', ['ses_1', otherShardSession]);
    commit('t1', 'first of a new session', { sessionId: otherShardSession });
    await elapse(POLL_INTERVAL_MS);
    commit('t1', 'second of it', { sessionId: otherShardSession });
    await elapse(SHARDS_REFRESH_MS);
    expect(c.texts()).toEqual(['first of a new session', 'second of it']);
    commit('t1', 'then live', { sessionId: otherShardSession });
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['first of a new session', 'second of it', 'then live']);
  });

  it("a message this process stored for a session new to the poller: that session's shard is read from then on", async () => {
    feed.sessions.set('t1', ['ses_1']);
    const c = await client('t1');
    await elapse(POLL_INTERVAL_MS);
    nudgeTenantFeed('t1', [commit('t1', 'stored here', { sessionId: otherShardSession })]);
    await elapse(POLL_INTERVAL_MS);
    commit('t1', 'stored elsewhere', { sessionId: otherShardSession });
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['stored here', 'stored elsewhere']);
  });
});

describe('pollers', () => {
  it('one per tenant, shared by its clients, tenants apart; stopped when the last client leaves', async () => {
    const a1 = await client('ta');
    const a2 = await client('ta');
    const b = await client('tb');
    expect(feedStats()).toEqual({ tenants: 2, listeners: 3 });

    commit('ta', 'for a');
    commit('tb', 'for b');
    await elapse(POLL_INTERVAL_MS);
    expect(a1.texts()).toEqual(['for a']);
    expect(a2.texts()).toEqual(['for a']);
    expect(b.texts()).toEqual(['for b']);
    // Both clients of a tenant get the same encoded frame: encoded once, not per client.
    expect(a1.got[0]?.frame).toBe(a2.got[0]?.frame);

    a1.close();
    expect(feedStats()).toEqual({ tenants: 2, listeners: 2 });
    a2.close();
    b.close();
    expect(feedStats()).toEqual({ tenants: 0, listeners: 0 });
    const queries = feed.queries;
    await elapse(10 * POLL_INTERVAL_MS);
    expect(feed.queries).toBe(queries);
  });
});

describe('replay (Last-Event-ID)', () => {
  it('sends the missed inbound messages in order before the feed opens, then live ones', async () => {
    const seen = commit('t1', 'seen', { at: Date.now() - 60_000 });
    commit('t1', 'missed 1', { at: Date.now() - 50_000 });
    commit('t1', 'a reply', { at: Date.now() - 40_000, outbound: true });
    commit('t1', 'missed 2', { at: Date.now() - 30_000 });
    const c = await client('t1', seen.gsi1sk);
    expect(c.texts()).toEqual(['missed 1', 'missed 2']);

    commit('t1', 'live');
    await elapse(POLL_INTERVAL_MS);
    expect(c.texts()).toEqual(['missed 1', 'missed 2', 'live']);
  });

  it('reads page after page', async () => {
    const start = Date.now() - 3_600_000;
    const first = commit('t1', 'seen', { at: start });
    for (let i = 0; i < 1_200; i++) commit('t1', `m${i}`, { at: start + 1 + i });
    const c = await client('t1', first.gsi1sk);
    expect(c.got).toHaveLength(1_200);
    expect(c.texts().at(-1)).toBe('m1199');
    const ids = c.got.map((e) => e.id);
    expect([...ids].sort()).toEqual(ids);
  });

  it('a replay sends at most its cap, oldest first, and does not go live; a resume sends the rest', async () => {
    const start = Date.now() - 3_600_000;
    const first = commit('t1', 'seen', { at: start });
    for (let i = 0; i < 1_200; i++) {
      commit('t1', `m${i}`, { at: start + 1 + 2 * i });
      // Outbound messages share the feed index; they neither count nor are sent.
      commit('t1', `out${i}`, { at: start + 2 + 2 * i, outbound: true });
    }
    const got: FeedEvent[] = [];
    const opened = await openFeed('t1', first.gsi1sk, (e) => got.push(e), 700);
    expect(opened.truncated).toBe(true);
    expect(got.map((e) => JSON.parse(e.data).message)).toEqual(
      Array.from({ length: 700 }, (_, i) => `m${i}`),
    );
    // Not listening live: its poller stopped with it.
    expect(feedStats()).toEqual({ tenants: 0, listeners: 0 });
    commit('t1', 'live while away');
    await elapse(POLL_INTERVAL_MS * 2);
    expect(got).toHaveLength(700);
    // The client resumes after the last id it got: the rest, then live.
    const rest = await client('t1', must(got.at(-1), 'the last message got').id);
    expect(rest.texts()).toEqual([
      ...Array.from({ length: 500 }, (_, i) => `m${700 + i}`),
      'live while away',
    ]);
    commit('t1', 'live');
    await elapse(POLL_INTERVAL_MS);
    expect(rest.texts().at(-1)).toBe('live');
  });

  it('a replay of exactly its cap with nothing after it goes live', async () => {
    const first = commit('t1', 'seen', { at: Date.now() - 60_000 });
    for (let i = 0; i < 3; i++) commit('t1', `m${i}`, { at: Date.now() - 30_000 + i });
    const got: FeedEvent[] = [];
    const opened = await openFeed('t1', first.gsi1sk, (e) => got.push(e), 3);
    expect(opened.truncated).toBe(false);
    expect(got).toHaveLength(3);
    closers.push(opened.close);
  });

  it("a tenant's replays run a few at a time; the others wait their turn, other tenants do not", async () => {
    const seenA = commit('t1', 'seen', { at: Date.now() - 60_000 });
    const seenB = commit('t2', 'seen', { at: Date.now() - 60_000 });
    commit('t1', 'missed a', { at: Date.now() - 30_000 });
    commit('t2', 'missed b', { at: Date.now() - 30_000 });
    let release: () => void = () => {};
    feed.gate = new Promise((r) => {
      release = r;
    });
    const gotA: FeedEvent[][] = [];
    const openingA = Array.from({ length: REPLAYS_PER_TENANT + 2 }, () => {
      const got: FeedEvent[] = [];
      gotA.push(got);
      return openFeed('t1', seenA.gsi1sk, (e) => got.push(e), REPLAY_MAX);
    });
    const openingB = openFeed('t2', seenB.gsi1sk, () => {}, REPLAY_MAX);
    await elapse(1);
    expect(feed.atGate.get('t1')).toBe(REPLAYS_PER_TENANT);
    expect(feed.atGate.get('t2')).toBe(1);
    release();
    for (const o of [...openingA, openingB]) closers.push((await o).close);
    // Every client got its replay in the end.
    expect(gotA.map((g) => g.map((e) => JSON.parse(e.data).message))).toEqual(gotA.map(() => ['missed a']));
  });

  it('a message arriving live during the replay is sent once, after the replay', async () => {
    const seen = commit('t1', 'seen', { at: Date.now() - 60_000 });
    commit('t1', 'missed', { at: Date.now() - 30_000 });
    let release: () => void = () => {};
    feed.gate = new Promise((r) => {
      release = r;
    });
    const got: FeedEvent[] = [];
    const opening = openFeed('t1', seen.gsi1sk, (e) => got.push(e));

    // The live poller finds it while the replay is still reading; the replay finds it too.
    await elapse(1);
    commit('t1', 'during the replay');
    await elapse(POLL_INTERVAL_MS);
    expect(got).toHaveLength(0);
    release();
    closers.push((await opening).close);
    await elapse(POLL_INTERVAL_MS);
    expect(got.map((e) => JSON.parse(e.data).message)).toEqual(['missed', 'during the replay']);
  });

  it('a replay that fails closes the feed and rejects', async () => {
    const seen = commit('t1', 'seen', { at: Date.now() - 60_000 });
    feed.replayFails = true;
    await expect(client('t1', seen.gsi1sk)).rejects.toThrow('DynamoDB unavailable');
    expect(feedStats()).toEqual({ tenants: 0, listeners: 0 });
  });
});
