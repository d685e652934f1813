import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadAuthState } from '../../connection-host/drivers/baileys/auth-state.ts';
import { claimSession, FencedOutError, holdsSession } from '../../connection-host/session-fence.ts';
import { must } from '../support/must.ts';

// A shard number no host of the running service uses: the guards below are made up, not leased.
const SHARD = 4095;
const stale = { shard: SHARD, owner: 'host-x', fence: 3 };
const current = { shard: SHARD, owner: 'host-y', fence: 4 };
const keyPair = () => ({ public: randomBytes(32), private: randomBytes(32) });

/**
 * Auth-state writes and sends are fenced on the session's own epoch item: once another host has
 * claimed the session (its shard's later fence), the stale host's credential and key writes are
 * refused and it no longer holds the session (its sends check this first). No shared item is read.
 */
describe('per-session fencing', () => {
  it('writes under the current epoch and refuses them once a later holder claimed the session', async () => {
    const sessionId = `fence_${Date.now()}_${randomBytes(3).toString('hex')}`;
    expect(await claimSession(sessionId, stale)).toBe(true);
    const held = await loadAuthState(sessionId, stale);
    const first = keyPair();
    await held.state.keys.set({ 'pre-key': { '1': first } });
    await held.saveCreds();
    expect(await holdsSession(sessionId, stale)).toBe(true);

    // Another host takes the shard (a higher fence) and claims the session.
    expect(await claimSession(sessionId, current)).toBe(true);
    // The stale host can claim it back no more, and a send would be refused (it no longer holds it).
    expect(await claimSession(sessionId, stale)).toBe(false);
    expect(await holdsSession(sessionId, stale)).toBe(false);
    await expect(held.state.keys.set({ 'pre-key': { '2': keyPair() } })).rejects.toBeInstanceOf(
      FencedOutError,
    );
    await expect(held.saveCreds()).rejects.toBeInstanceOf(FencedOutError);

    // What the stale host tried to write is not there; what it wrote under its epoch is.
    const reader = await loadAuthState(sessionId);
    const stored = await reader.state.keys.get('pre-key', ['1', '2']);
    expect(Buffer.from(must(stored['1'], "stored['1']").public).equals(first.public)).toBe(true);
    expect(stored['2']).toBeUndefined();

    // The new holder writes fine.
    const now = await loadAuthState(sessionId, current);
    await now.state.keys.set({ 'pre-key': { '2': keyPair() } });
    expect((await (await loadAuthState(sessionId)).state.keys.get('pre-key', ['2']))['2']).toBeDefined();
  });

  it('a session never claimed refuses fenced writes: a host must claim before it runs the link', async () => {
    const sessionId = `fence_unclaimed_${Date.now()}`;
    const auth = await loadAuthState(sessionId, current);
    await expect(auth.state.keys.set({ 'pre-key': { '1': keyPair() } })).rejects.toBeInstanceOf(
      FencedOutError,
    );
  });
});
