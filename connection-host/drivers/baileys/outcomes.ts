import { proto, type WAMessageUpdate } from '@whiskeysockets/baileys';

/** What the network says about our own messages after it took them: delivery, reading, refusal. */

/** What the network said about one of our own messages after it took it (docs/events.md). */
export type SendOutcome = { status: 'delivered' | 'read' } | { status: 'failed'; reason: string };

/**
 * What a status of our own message tells the host. The server ack is not reported (the host reports
 * `sent` when `send` resolves); an error ack carries the network's error code as its stub parameter.
 */
export function outcomeOfStatus(
  status: number | null | undefined,
  stubParameters?: readonly string[] | null,
): SendOutcome | undefined {
  const S = proto.WebMessageInfo.Status;
  switch (status) {
    case S.ERROR: {
      const code = stubParameters?.[0];
      return {
        status: 'failed',
        reason: code ? `network refused the message (error ${code})` : 'network refused the message',
      };
    }
    case S.DELIVERY_ACK:
      return { status: 'delivered' };
    case S.READ:
    case S.PLAYED:
      return { status: 'read' };
    default:
      return undefined;
  }
}

/** A `messages.update` for one of our own messages; others' messages are not ours to report. */
export function outcomeOfUpdate(u: WAMessageUpdate): SendOutcome | undefined {
  if (!u.key.fromMe || !u.key.id) return undefined;
  return outcomeOfStatus(u.update.status, u.update.messageStubParameters);
}

/** Our delivery status from a per-user receipt (groups). */
export function receiptOfUserReceipt(r: proto.IUserReceipt): 'delivered' | 'read' | undefined {
  const set = (t: number | { toNumber(): number } | null | undefined) =>
    t !== null && t !== undefined && (typeof t === 'number' ? t : t.toNumber()) > 0;
  if (set(r.readTimestamp) || set(r.playedTimestamp)) return 'read';
  if (set(r.receiptTimestamp)) return 'delivered';
  return undefined;
}
