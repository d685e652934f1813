import type { WASocket } from '@whiskeysockets/baileys';
import { newChatsRefusal } from '#shared/sessions/restriction';
import { SendRefusedError, SendUnconfirmedError } from '../driver.ts';
import { fromError463, NEW_CHAT_RESTRICTED_ERROR } from './restrictions.ts';

/**
 * Waiting on the network: written to the socket is not taken by the network, so a send resolves
 * only on the network's ack, and a hand-over Baileys does not bound as a whole is bounded here.
 */

/**
 * Settles when the network acks `id`: rejects with `SendRefusedError` (the network's code) on an
 * error ack, and with `SendUnconfirmedError` when the link closes first or no ack comes within
 * `timeoutMs` (the network may still have taken it). `what` names the message in the reasons.
 */
export function serverAck(sock: WASocket, id: string, timeoutMs: number, what: string) {
  let cancel = () => {};
  const result = new Promise<void>((resolve, reject) => {
    const onAck = (node: { attrs: Record<string, string> }) => {
      if (node.attrs.id !== id) return;
      done();
      if (node.attrs.error === NEW_CHAT_RESTRICTED_ERROR)
        reject(new SendRefusedError(newChatsRefusal(fromError463(Date.now()))));
      else if (node.attrs.error)
        reject(new SendRefusedError(`the network refused the ${what} (error ${node.attrs.error})`));
      else resolve();
    };
    const onClose = () => {
      done();
      reject(new SendUnconfirmedError(`the link closed before the network acknowledged the ${what}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(
        new SendUnconfirmedError(`the network did not acknowledge the ${what} within ${timeoutMs / 1000} s`),
      );
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      sock.ws.off('CB:ack,class:message', onAck);
      sock.ws.off('close', onClose);
    };
    cancel = done;
    sock.ws.on('CB:ack,class:message', onAck);
    sock.ws.on('close', onClose);
  });
  result.catch(() => undefined); // awaited by the caller unless the send itself failed
  return { result, cancel };
}

/** `p`, or a rejection once `ms` have passed without it settling (`p` itself is left to run). */
export function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  p.catch(() => undefined); // settles after the timeout, unobserved
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
