import { describe, expect, it } from 'vitest';
import { env } from '#shared/config/env';
import { insertSession, markInactive } from '#shared/sessions/repository';
import { shardOf } from '#shared/sessions/shard';
import { authCredsKey } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import { dispatchCommand, newCommandId } from '../../functions/api/commands/dispatch.ts';
import { newTenant, waitFor } from '../support/client.ts';

/**
 * A session the host holds no link for (say, DISCONNECTED before a host restart) is deleted: the
 * logout command still removes its auth state and reports LOGGED_OUT, without connecting first.
 */
describe('logout of a session without a live link', () => {
  it('removes the stored auth state and reports LOGGED_OUT', async () => {
    const t = await newTenant();
    const sessionId = `qr_${Date.now()}_0badc0de`;
    const now = new Date().toISOString();
    await insertSession({
      tenantId: t.id,
      sessionId,
      mobid: `9${String(Date.now()).padStart(14, '0')}`.slice(0, 15),
      method: 'qr',
      status: 'DISCONNECTED',
      dbStatus: 'active',
      shard: shardOf(sessionId, env().SHARD_COUNT),
      createdAt: now,
      updatedAt: now,
      stateAt: 1,
    });
    await authTable.put({ ...authCredsKey(sessionId), token: 'stale' });
    await markInactive(t.id, sessionId);
    await dispatchCommand({
      kind: 'logout',
      commandId: newCommandId(),
      tenantId: t.id,
      sessionId,
      issuedAt: Date.now(),
    });

    const session = await waitFor(async () => {
      const r = await t.api.get(`/api/sessions/${sessionId}`);
      return r.body.session?.status === 'LOGGED_OUT' ? r.body.session : undefined;
    });
    expect(session.dbStatus).toBe('inactive');
    expect(await authTable.get(authCredsKey(sessionId), true)).toBeUndefined();
  });
});
