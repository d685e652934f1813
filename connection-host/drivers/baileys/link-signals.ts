import type { WASocket } from '@whiskeysockets/baileys';
import type { LidCache } from '#shared/contacts/lid-cache';
import type { Logger } from '#shared/log/logger';
import type { DriverEvents } from '../driver.ts';
import type { DynamoAuthState } from './auth-state.ts';
import { CallTracker } from './calls.ts';
import { fromCapping, fromError463, NEW_CHAT_RESTRICTED_ERROR } from './restrictions.ts';

/**
 * What the socket says besides messages and the link's state: calls, restrictions, signs of life,
 * and new creds (stored as they come). Answers the calls seen, which `rejectCall` needs.
 */
export function watchSignals(p: {
  sock: WASocket;
  events: DriverEvents;
  log: Logger;
  auth: DynamoAuthState;
  lids: LidCache;
}): CallTracker {
  const { sock, events } = p;
  const calls = new CallTracker();
  sock.ev.on('call', (updates) => {
    for (const c of updates) {
      const call = calls.update(c, (lid) => p.lids.get(lid));
      if (call) events.onCall(call);
    }
  });
  sock.ev.on('message-capping.update', (c) => events.onRestriction(fromCapping(c)));
  // A 463 on any message: the account may not start new chats (Baileys only logs it).
  sock.ws.on('CB:ack,class:message', (node: { attrs: Record<string, string> }) => {
    if (node.attrs.error === NEW_CHAT_RESTRICTED_ERROR) events.onRestriction(fromError463(Date.now()));
  });

  let lastActivity = 0;
  sock.ws.on('frame', () => {
    const now = Date.now();
    if (now - lastActivity < 1000) return;
    lastActivity = now;
    events.onActivity();
  });
  sock.ev.on('creds.update', () => {
    p.auth.saveCreds().catch((err) => p.log.error({ err }, 'saving creds failed'));
  });
  return calls;
}
