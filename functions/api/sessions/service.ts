import { randomBytes, randomInt } from 'node:crypto';
import { env } from '#shared/config/env';
import { SessionNotReadyError } from '#shared/http/errors';
import { insertSession, markInactive, requireSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { shardOf } from '#shared/sessions/shard';
import { dispatchCommand, newCommandId } from '../commands/dispatch.ts';

const newSessionId = () => `qr_${Date.now()}_${randomBytes(4).toString('hex')}`;
const newMobid = () => `${randomInt(1, 10)}${Array.from({ length: 14 }, () => randomInt(0, 10)).join('')}`;

export async function createSession(
  tenantId: string,
  input: { name?: string; method: 'qr' | 'phone'; phoneNumber?: string },
): Promise<Session> {
  const now = new Date().toISOString();
  const sessionId = newSessionId();
  const session: Session = {
    tenantId,
    sessionId,
    mobid: newMobid(),
    name: input.name,
    method: input.method,
    phoneNumber: input.phoneNumber,
    status: 'REGISTERING',
    dbStatus: 'active',
    shard: shardOf(sessionId, env().SHARD_COUNT),
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
