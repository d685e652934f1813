import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { BinaryNode, proto } from '@whiskeysockets/baileys';
import type { Linking } from './linking.ts';
import type { Outbox } from './outbox.ts';
import {
  callStanza,
  garbageEnc,
  historySyncMessage,
  messageStanza,
  mexNotification,
  receiptStanza,
  retryReceiptStanza,
  senderAttrs,
} from './phone-stanzas.ts';
import { newMessageId, now } from './stanzas.ts';
import {
  type Companion,
  type FakeUser,
  type SendOptions,
  type Switchboard,
  sealForCompanion,
} from './users.ts';

/** What the phones need of the network: who a JID names, and where their failures go. */
export interface PhoneWorld {
  userOf(jid: string): FakeUser | undefined;
  readonly errors: unknown[];
  emit: EventEmitter['emit'];
}

/**
 * What the simulated phones (and callers) do towards the companions linked to an account:
 * messages (also undecryptable ones and their resend on a retry receipt), own-device copies,
 * receipts, retry receipts, linking a new device, calls, `mex` notifications and the initial
 * history sync. The switchboard FakeUser calls; kept apart from network.ts, which handles the
 * companions' connections.
 */
export class Phones implements Switchboard {
  /**
   * Messages a phone sent that their recipient's devices could not decrypt (`sendUndecryptable`):
   * what the sending phone sends again, properly, when a device asks with a retry receipt.
   */
  private readonly retryable = new Map<
    string,
    { from: FakeUser; to: FakeUser; message: proto.IMessage; opts: SendOptions }
  >();
  /** While set, phones ignore retry receipts for `sendUndecryptable` messages (a sender gone offline). */
  ignoreRetries = false;
  /** Ids of the messages a phone sent again after a device's retry receipt, in order. */
  readonly resent: string[] = [];

  constructor(
    private readonly world: PhoneWorld,
    private readonly outbox: Outbox,
    private readonly linking: Linking,
  ) {}

  sendFromPhone(from: FakeUser, to: FakeUser, message: proto.IMessage, opts: SendOptions): Promise<string> {
    const id = opts.id ?? newMessageId();
    const attrs = { ...senderAttrs(from, opts), id, t: now(), type: 'text', notify: from.name };
    return this.outbox.inOrder(async () => {
      for (const c of opts.only ? [opts.only] : to.companions.values())
        this.outbox.deliver(c, messageStanza(attrs, await sealForCompanion(from, to, c, message)));
      return id;
    });
  }

  /**
   * A message its recipient's devices cannot decrypt: the `enc` holds bytes that are no Signal
   * message of any session (as after the sender's phone lost its session state). A device answers
   * with a retry receipt; the sending phone then sends `message` again with the same id, encrypted
   * properly (`answerRetry`), as a real phone does.
   */
  sendUndecryptable(
    from: FakeUser,
    to: FakeUser,
    message: proto.IMessage,
    opts: SendOptions,
  ): Promise<string> {
    const id = opts.id ?? newMessageId();
    const attrs = { ...senderAttrs(from, opts), id, t: now(), type: 'text', notify: from.name };
    this.retryable.set(id, { from, to, message, opts });
    return this.outbox.inOrder(async () => {
      for (const c of opts.only ? [opts.only] : to.companions.values())
        this.outbox.deliver(c, messageStanza(attrs, garbageEnc()));
      return id;
    });
  }

  /** A device's retry receipt for a message `sendUndecryptable` sent: its phone sends it again. */
  answerRetry(c: Companion, node: BinaryNode): void {
    const pending = node.attrs.type === 'retry' ? this.retryable.get(node.attrs.id ?? '') : undefined;
    if (!pending || c.user !== pending.to || this.ignoreRetries) return;
    const id = node.attrs.id ?? '';
    this.resent.push(id);
    void this.sendFromPhone(pending.from, pending.to, pending.message, {
      ...pending.opts,
      id,
      only: c,
    }).catch((err) => {
      this.world.errors.push(err);
      this.world.emit('relay-error', err);
    });
  }

  ownFromPhone(me: FakeUser, to: FakeUser, text: string, opts: SendOptions): Promise<string> {
    const id = opts.id ?? newMessageId();
    // The phone's copy for its own other devices: from itself, with the chat as `recipient`, the
    // message wrapped as a deviceSentMessage (Baileys unwraps it and marks the message fromMe).
    const message: proto.IMessage = {
      deviceSentMessage: { destinationJid: to.pnJid(), message: { conversation: text } },
    };
    const attrs = {
      from: me.lidJid(),
      sender_pn: me.pnJid(),
      addressing_mode: 'lid',
      recipient: to.pnJid(),
      id,
      t: now(),
      type: 'text',
    };
    return this.outbox.inOrder(async () => {
      for (const c of opts.only ? [opts.only] : me.companions.values())
        this.outbox.deliver(c, messageStanza(attrs, await sealForCompanion(me, me, c, message)));
      return id;
    });
  }

  receiptFromPhone(from: FakeUser, to: FakeUser, ids: string[], type?: 'read' | 'played'): void {
    const [first, ...rest] = ids;
    if (!first) return;
    const fromJid = this.addressedAs(from, first) ?? from.pnJid();
    for (const c of to.companions.values())
      this.outbox.deliver(c, receiptStanza(fromJid, [first, ...rest], type));
  }

  retryFromPhone(from: FakeUser, to: FakeUser, id: string): void {
    const fromJid = this.addressedAs(from, id) ?? from.lidJid();
    for (const c of to.companions.values())
      this.outbox.deliver(c, retryReceiptStanza(fromJid, id, from.phone.registrationId));
  }

  scanQr(user: FakeUser, qr: string): Promise<Companion> {
    return this.linking.scanQr(user, qr);
  }

  enterPairingCode(user: FakeUser, code: string): Promise<Companion> {
    return this.linking.enterPairingCode(user, code);
  }

  /** Receipts name the sender the way the message named the chat. */
  private addressedAs(from: FakeUser, id: string): string | undefined {
    const addressedAs = from.received.find((m) => m.id === id)?.to;
    return addressedAs && this.world.userOf(addressedAs) === from ? addressedAs : undefined;
  }

  /** See FakeNetwork.ring. */
  ring(from: FakeUser, to: FakeUser, opts: { video?: boolean } = {}): string {
    const callId = randomBytes(16).toString('hex').toUpperCase();
    const media: BinaryNode[] = [
      { tag: 'audio', attrs: { enc: 'opus', rate: '16000' } },
      ...(opts.video ? [{ tag: 'video', attrs: { enc: 'vp8', dec: 'vp8' } }] : []),
    ];
    this.callStep(from, to, {
      tag: 'offer',
      attrs: { 'call-id': callId, 'call-creator': from.lidJid(), caller_pn: from.pnJid() },
      content: media,
    });
    return callId;
  }

  /** See FakeNetwork.hangUp. */
  hangUp(from: FakeUser, to: FakeUser, callId: string, reason?: 'timeout'): void {
    this.callStep(from, to, {
      tag: 'terminate',
      attrs: { 'call-id': callId, 'call-creator': from.lidJid(), ...(reason ? { reason } : {}) },
    });
  }

  private callStep(from: FakeUser, to: FakeUser, step: BinaryNode) {
    for (const c of to.companions.values()) this.outbox.deliver(c, callStanza(from, step));
  }

  /** See FakeNetwork.notifyMex. */
  notifyMex(c: Companion, opName: string, data: Record<string, unknown>): void {
    this.outbox.deliver(c, mexNotification(opName, data));
  }

  /**
   * The phone's initial history sync for a new device (its first login). Once Baileys has
   * processed it, later logins skip the 20 s sync wait.
   */
  async sendHistorySync(c: Companion, others: FakeUser[]): Promise<void> {
    await this.sendFromPhone(c.user, c.user, historySyncMessage(c, others), { only: c });
  }
}
