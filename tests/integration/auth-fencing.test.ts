import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leaseKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { loadAuthState } from '../../connection-host/drivers/baileys/auth-state.ts';
import { FencedOutError } from '../../connection-host/leases.ts';

// A shard number no host of the running service uses (they lease 0 … SHARD_COUNT-1).
const SHARD = 97;

/** Auth-state writes carry the host's lease: once another host holds the shard, they are refused. */
describe('fenced auth-state writes', () => {
  it('writes under the current lease and refuses them after the shard moved to another host', async () => {
    await dataTable.put({
      ...leaseKey(SHARD),
      shard: SHARD,
      owner: 'host-x',
      fence: 3,
      expiresAtMs: Date.now() + 60_000,
    });
    const sessionId = `fence_${Date.now()}`;
    const keyPair = () => ({ public: randomBytes(32), private: randomBytes(32) });

    const held = await loadAuthState(sessionId, { shard: SHARD, owner: 'host-x', fence: 3 });
    const first = keyPair();
    await held.state.keys.set({ 'pre-key': { '1': first } });

    // Another host takes the shard (new owner, higher fence).
    await dataTable.put({
      ...leaseKey(SHARD),
      shard: SHARD,
      owner: 'host-y',
      fence: 4,
      expiresAtMs: Date.now() + 60_000,
    });
    await expect(held.state.keys.set({ 'pre-key': { '2': keyPair() } })).rejects.toBeInstanceOf(
      FencedOutError,
    );
    await expect(held.saveCreds()).rejects.toBeInstanceOf(FencedOutError);

    // What the stale host tried to write is not there; what it wrote under its lease is.
    const reader = await loadAuthState(sessionId);
    const stored = await reader.state.keys.get('pre-key', ['1', '2']);
    expect(Buffer.from(stored['1']!.public).equals(first.public)).toBe(true);
    expect(stored['2']).toBeUndefined();

    // The new holder writes fine.
    const current = await loadAuthState(sessionId, { shard: SHARD, owner: 'host-y', fence: 4 });
    await current.state.keys.set({ 'pre-key': { '2': keyPair() } });
    expect((await (await loadAuthState(sessionId)).state.keys.get('pre-key', ['2']))['2']).toBeDefined();
  });
});
