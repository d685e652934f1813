import { randomBytes, randomInt } from 'node:crypto';
import { env } from '#shared/config/env';
import { ConflictError, SessionNotReadyError } from '#shared/http/errors';
import { unmaskUrl } from '#shared/http/mask-url';
import { assertProxyAddressAllowed } from '#shared/sessions/proxy-url';
import {
  insertSession,
  markInactive,
  requireSession,
  updateSessionSettings,
} from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { shardOf } from '#shared/sessions/shard';
import { acceptCommand } from '../commands/accept.ts';
import { dispatchCommand, newCommandId } from '../commands/dispatch.ts';
import type { SettingsInput } from './settings.ts';

const newSessionId = () => `qr_${Date.now()}_${randomBytes(4).toString('hex')}`;
const newMobid = () => `${randomInt(1, 10)}${Array.from({ length: 14 }, () => randomInt(0, 10)).join('')}`;

export async function createSession(
  tenantId: string,
  input: {
    name?: string;
    method: 'qr' | 'phone';
    phoneNumber?: string;
    syncHistory?: { days: number };
  } & SettingsInput,
): Promise<Session> {
  if (input.proxyUrl) await assertProxyAddressAllowed(input.proxyUrl, env().WEBHOOK_ALLOW_PRIVATE_TARGETS);
  const now = new Date().toISOString();
  const sessionId = newSessionId();
  const session: Session = {
    tenantId,
    sessionId,
    mobid: newMobid(),
    name: input.name,
    method: input.method,
    phoneNumber: input.phoneNumber,
    ...(input.rejectCalls ? { rejectCalls: true } : {}),
    ...(input.rejectMessage ? { rejectMessage: input.rejectMessage } : {}),
    ...(input.proxyUrl ? { proxyUrl: input.proxyUrl } : {}),
    ...(input.syncHistory ? { syncHistory: input.syncHistory } : {}),
    status: 'REGISTERING',
    dbStatus: 'active',
    shard: shardOf(sessionId, env().LEASE_SHARDS),
    createdAt: now,
    updatedAt: now,
    stateAt: 0,
  };
  await insertSession(session);
  await dispatchCommand({
    kind: 'connect',
    commandId: newCommandId(),
    tenantId,
    sessionId,
    issuedAt: Date.now(),
    method: input.method,
    phoneNumber: input.phoneNumber,
  });
  return session;
}

/** Logs out at the network (the host removes auth state) and keeps the record as inactive. */
export async function deleteSession(tenantId: string, identifier: string): Promise<Session> {
  const session = await requireSession(tenantId, identifier);
  if (session.dbStatus === 'inactive') return session;
  const updated = (await markInactive(tenantId, session.sessionId)) ?? session;
  await dispatchCommand({
    kind: 'logout',
    commandId: newCommandId(),
    tenantId,
    sessionId: session.sessionId,
    issuedAt: Date.now(),
  });
  return updated;
}

/** The session behind a sender identifier, which must be READY to send. */
export async function requireReadySession(tenantId: string, identifier: string): Promise<Session> {
  const session = await requireSession(tenantId, identifier);
  if (session.dbStatus !== 'active' || session.status !== 'READY') {
    throw new SessionNotReadyError(
      session.sessionId,
      session.dbStatus === 'active' ? session.status : 'deleted',
    );
  }
  return session;
}

/**
 * Asks the host holding the session to drop its link and connect again at once from the stored
 * auth state (backoff reset); also brings back a FAILED or DISCONNECTED session. A logged-out or
 * deleted session has no auth state left: it must be linked again (409).
 */
export async function reconnectSession(
  tenantId: string,
  identifier: string,
): Promise<{ session: Session; commandId: string }> {
  const session = await requireSession(tenantId, identifier);
  if (session.dbStatus !== 'active')
    throw new ConflictError(`session ${session.sessionId} was deleted; create a new session to link again`);
  if (session.status === 'LOGGED_OUT')
    throw new ConflictError(
      `session ${session.sessionId} is logged out; delete it and create a new session to link again`,
    );
  const { commandId } = await acceptCommand(session, { kind: 'reconnect' });
  return { session, commandId };
}

/**
 * Changes the settings given (`null` clears an optional one). A deleted session keeps its settings
 * as they were (409). `rejectCalls` is read by the host when a call rings, so it holds from the next
 * call on, with no reconnect. A new or removed proxy takes effect by a reconnect, queued here for a
 * session that has a link to make (its `commandId` answered).
 */
export async function updateSession(
  tenantId: string,
  identifier: string,
  input: { name?: string } & SettingsInput,
): Promise<{ session: Session; commandId?: string }> {
  const session = await requireSession(tenantId, identifier);
  if (session.dbStatus !== 'active') throw new ConflictError(`session ${session.sessionId} was deleted`);
  // A masked password sent back keeps the stored one, only while the proxy is the same (mask-url.ts).
  const proxyUrl = input.proxyUrl ? unmaskUrl(input.proxyUrl, session.proxyUrl, 'proxyUrl') : input.proxyUrl;
  if (proxyUrl) await assertProxyAddressAllowed(proxyUrl, env().WEBHOOK_ALLOW_PRIVATE_TARGETS);
  const remove = [
    ...(input.rejectMessage === null ? (['rejectMessage'] as const) : []),
    ...(proxyUrl === null ? (['proxyUrl'] as const) : []),
  ];
  const updated = await updateSessionSettings(
    tenantId,
    session.sessionId,
    {
      name: input.name,
      rejectCalls: input.rejectCalls,
      rejectMessage: input.rejectMessage ?? undefined,
      proxyUrl: proxyUrl ?? undefined,
    },
    remove,
  );
  if (!updated) throw new ConflictError(`session ${session.sessionId} changed meanwhile; try again`);
  const proxyChanged = proxyUrl !== undefined && (proxyUrl ?? undefined) !== session.proxyUrl;
  if (!proxyChanged || updated.status === 'LOGGED_OUT') return { session: updated };
  const { commandId } = await acceptCommand(updated, { kind: 'reconnect' });
  return { session: updated, commandId };
}
