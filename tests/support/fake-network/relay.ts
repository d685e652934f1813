import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  jidDecode,
  type proto,
} from '@whiskeysockets/baileys';
import type { Link } from './link.ts';
import { now } from './stanzas.ts';
import type { Companion, FakeUser, ReceivedMessage } from './users.ts';

/**
 * A message from a companion on its way to the simulated phones: the faults a test asked for
 * (lost, refused with an error ack), the ack, and each addressed phone decrypting its copy. Kept
 * apart from network.ts, which only dispatches the stanza here.
 */

/** The send faults a test has queued: what happens to the next messages companions send. */
export class SendFaults {
  private toLose = 0;
  private readonly errors: Array<{ error: string; to?: FakeUser }> = [];
  /** Ids of the messages `lose` made the network lose, in order. */
  readonly lost: string[] = [];

  lose(count: number): void {
    this.toLose += count;
  }

  fail(error: string, to?: FakeUser): void {
    this.errors.push({ error, ...(to ? { to } : {}) });
  }

  /** Takes the next lost send, if one is due; records its id. */
  takeLoss(id: string): boolean {
    if (this.toLose <= 0) return false;
    this.toLose--;
    this.lost.push(id);
    return true;
  }

  /** Takes the next error ack meant for a send to `target` (or to anyone), if any. */
  takeError(target: FakeUser | undefined): string | undefined {
    const i = this.errors.findIndex((e) => !e.to || e.to === target);
    return i >= 0 ? this.errors.splice(i, 1)[0]?.error : undefined;
  }
}

/** The text of a message, unwrapping what our own other devices receive (deviceSentMessage). */
function textOf(m: proto.IMessage | null | undefined): string | undefined {
  const inner = m?.deviceSentMessage?.message ?? m;
  return inner?.conversation ?? inner?.extendedTextMessage?.text ?? undefined;
}

/**
 * Acks `node` from companion `c` on `link` (or loses or refuses it as `faults` say), then lets
 * each addressed simulated phone decrypt its copy, telling `onReceived` of each at once.
 */
export async function relayToPhones(
  c: Companion,
  link: Link,
  node: BinaryNode,
  faults: SendFaults,
  userOf: (jid: string) => FakeUser | undefined,
  onReceived: (r: ReceivedMessage) => void,
): Promise<void> {
  const { id = '', to = '' } = node.attrs;
  if (faults.takeLoss(id)) return;
  const error = faults.takeError(userOf(to));
  link.send({
    tag: 'ack',
    attrs: { class: 'message', id, from: to, t: now(), ...(error !== undefined ? { error } : {}) },
  });
  if (error !== undefined) return;
  const copies = getBinaryNodeChildren(getBinaryNodeChild(node, 'participants'), 'to').map((p) => ({
    jid: p.attrs.jid ?? '',
    enc: getBinaryNodeChild(p, 'enc'),
  }));
  const direct = getBinaryNodeChild(node, 'enc');
  if (direct) copies.push({ jid: to, enc: direct });
  const sender = c.user.lidJid(c.device);
  for (const { jid, enc } of copies) {
    const user = userOf(jid);
    const device = jidDecode(jid)?.device ?? 0;
    const type = enc?.attrs.type;
    // Only phones are simulated; copies for other companions are not forwarded.
    if (!user || device !== 0 || !(enc?.content instanceof Uint8Array)) continue;
    if (type !== 'pkmsg' && type !== 'msg') continue;
    const message = await user.phone.decrypt(sender, type, enc.content);
    const text = textOf(message);
    const r: ReceivedMessage = { id, from: c, to, device, message, ...(text !== undefined ? { text } : {}) };
    user.received.push(r);
    onReceived(r);
  }
}
