import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  jidDecode,
  proto,
  S_WHATSAPP_NET,
} from '@whiskeysockets/baileys';
import { WebSocketServer } from 'ws';
import { makeServerIdentity, type ServerIdentity, trustTestRoot } from './certs.ts';
import { answerIq, type Directory, result } from './iq.ts';
import { Link } from './link.ts';
import { Linking, type Registration } from './linking.ts';
import type { PreKeyBundle } from './sim-device.ts';
import { type Disconnect, newMessageId, now, streamError } from './stanzas.ts';
import {
  type Companion,
  companionBundle,
  FakeUser,
  type ReceivedMessage,
  type SendOptions,
  type Switchboard,
  sealForCompanion,
} from './users.ts';

export interface FakeNetworkOptions {
  /** QR refs handed to a linking client; it shows one per 60 s (then 20 s) and gives up (408) after the last. */
  qrRefs?: number;
  /** How long the network waits for a client's answer during pairing. */
  replyTimeoutMs?: number;
  /**
   * The phone sends a new device the initial history sync on its first login (default true).
   * Without it Baileys holds the events of its first connections for 20 s waiting for one.
   */
  historySync?: boolean;
}

/** The text of a message, unwrapping what our own other devices receive (deviceSentMessage). */
function textOf(m: proto.IMessage | null | undefined): string | undefined {
  const inner = m?.deviceSentMessage?.message ?? m;
  return inner?.conversation ?? inner?.extendedTextMessage?.text ?? undefined;
}

/**
 * A small fake of the messaging network's edge that a real Baileys client connects to over
 * `ws://`: Noise handshake with a test certificate chain, QR and pairing-code linking, login with
 * saved creds, IQ answers, Signal-encrypted messages both ways with simulated phones, receipts,
 * acks (also error acks), offline queues and server-initiated disconnects.
 * Test infrastructure only; see README.md in this folder.
 */
export class FakeNetwork extends EventEmitter implements Switchboard, Directory {
  readonly url: string;
  /** Hex of the test root key: what BAILEYS_TEST_ROOT_PUBLIC_KEY must hold for a host process. */
  readonly rootPublicKey: string;
  /** `xmlns/first-child` of every IQ clients sent, in order; for debugging and assertions. */
  readonly iqLog: string[] = [];
  /** QR refs for the next linking client (undefined: 5); 0 makes Baileys give up at once (408). */
  qrRefs: number | undefined;
  /** Receipts companions sent (for messages they received), in order. */
  readonly receipts: Array<{ from: Companion; node: BinaryNode }> = [];
  /**
   * While set, a login gets its queued stanzas but not the offline-done that follows them (Baileys
   * keeps its events buffered meanwhile, up to 30 s): a link can be closed in the middle of the
   * offline replay. Cleared, the held offline-done goes out to the live link at once.
   */
  holdOfflineDone = false;
  private readonly heldOfflineDone = new Map<Companion, number>();
  /** Call stanzas companions sent (a `reject` declining a call), in order. */
  readonly callStanzas: Array<{ from: Companion; node: BinaryNode }> = [];
  /** Messages from companions the network could not handle (e.g. that failed to decrypt). */
  readonly errors: unknown[] = [];
  private readonly identity: ServerIdentity;
  private readonly users = new Map<string, FakeUser>();
  private readonly byLid = new Map<string, FakeUser>();
  private readonly linking: Linking;
  private readonly companionOf = new Map<Link, Companion>();
  private readonly sendErrors: Array<{ error: string; to?: FakeUser }> = [];
  private readonly loginRefusals: number[] = [];
  private toLose = 0;
  /** Ids of the messages `loseNextSends` made the network lose, in order. */
  readonly lost: string[] = [];
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
  private lidSeq = 200_000_000_000_000;
  private down = false;
  /** Signal state is not safe under concurrent use: encryption and decryption run one at a time. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly server: WebSocketServer,
    private readonly opts: FakeNetworkOptions = {},
  ) {
    super();
    this.qrRefs = opts.qrRefs;
    this.linking = new Linking(this, opts.replyTimeoutMs ?? 10_000);
    const { port } = server.address() as AddressInfo;
    this.url = `ws://127.0.0.1:${port}/ws/chat`;
    this.identity = makeServerIdentity();
    this.rootPublicKey = this.identity.rootPublicKey.toString('hex');
    server.on('connection', (ws) => {
      // An outage: the connection is dropped before a byte is answered.
      if (this.down) return void ws.terminate();
      new Link(ws, this.identity, {
        onHello: (link, payload, noiseKey) => this.hello(link, payload, noiseKey),
        onNode: (link, node) => this.node(link, node),
        onClose: (link) => this.closed(link),
      });
    });
  }

  /** Makes Baileys in this process accept the network's certificate; returns the undo. */
  trustInThisProcess(): () => void {
    return trustTestRoot(this.identity.rootPublicKey);
  }

  addUser(opts: { phone: string; name?: string }): FakeUser {
    const lid = String(this.lidSeq++);
    const user = new FakeUser(this, opts.phone, lid, opts.name ?? `User ${opts.phone.slice(-4)}`);
    this.users.set(opts.phone, user);
    this.byLid.set(lid, user);
    return user;
  }

  /** The user a JID (phone or LID, with or without device) names. */
  userOf(jid: string): FakeUser | undefined {
    const d = jidDecode(jid);
    if (!d) return undefined;
    return d.server === 'lid' ? this.byLid.get(d.user) : this.users.get(d.user);
  }

  bundleOf(jid: string): PreKeyBundle | undefined {
    const user = this.userOf(jid);
    const device = jidDecode(jid)?.device ?? 0;
    if (!user) return undefined;
    if (device === 0) return user.phone.bundle();
    const c = user.companions.get(device);
    return c ? companionBundle(c) : undefined;
  }

  /** Clients waiting to be linked (QR shown or pairing code requested). */
  pendingRegistrations(): Registration[] {
    return this.linking.pending();
  }

  /** Hands every waiting client fresh QR refs; Baileys shows a new QR at once. */
  refreshQr(count = this.qrRefs ?? 5): void {
    for (const r of this.linking.pending()) this.linking.sendRefs(r, count);
  }

  /** Ends a companion's live connection the way `code` says. */
  disconnect(c: Companion, code: Disconnect): void {
    if (!c.link) throw new Error(`device ${c.user.number}:${c.device} is not connected`);
    if (code === 428) c.link.close();
    else c.link.send(streamError(code));
  }

  /** The phone removes a linked device: it is told (401) if connected, and can no longer log in. */
  unlink(c: Companion): void {
    c.user.companions.delete(c.device);
    if (c.link) c.link.send(streamError(401));
  }

  /**
   * The next login is refused with `<failure reason=…>` (the real network answers an outdated
   * client version with 405, a banned account with 403).
   */
  /**
   * The lowest client version the network accepts: a login announcing an older one is refused with
   * 405, as the real network does when it raises its minimum. Unset: any version.
   */
  minClientVersion?: [number, number, number];

  /** IQs (`xmlns/first child`, e.g. `w:m/media_conn`: the media upload hosts) left unanswered. */
  readonly unansweredIqs = new Set<string>();

  refuseNextLogin(reason: number): void {
    this.loginRefusals.push(reason);
  }

  /**
   * An outage: every live connection is dropped and new ones are dropped on arrival until
   * `restore()`. Messages sent to a device meanwhile wait in its offline queue.
   */
  goDown(): void {
    this.down = true;
    for (const ws of this.server.clients) ws.terminate();
  }

  /** Ends an outage: connections are accepted again. */
  restore(): void {
    this.down = false;
  }

  /**
   * The next `count` messages companions send are lost: neither acked nor delivered, as on a link
   * that died under the sender. Their ids go to `lost`.
   */
  loseNextSends(count = 1): void {
    this.toLose += count;
  }

  /** The next message a companion sends (to `to`, if given) is refused with an error ack instead of delivered. */
  failNextSend(error = '479', to?: FakeUser): void {
    this.sendErrors.push({ error, ...(to ? { to } : {}) });
  }

  /**
   * A server notification of type `mex` (GraphQL push) with `data` as its JSON payload: how the
   * network tells an account of its reach-out time-lock (`NotificationUserReachoutTimelockUpdate`)
   * and new-chat capping (`MessageCappingInfoNotification`).
   */
  notifyMex(c: Companion, opName: string, data: Record<string, unknown>): void {
    this.deliver(c, {
      tag: 'notification',
      attrs: { from: S_WHATSAPP_NET, type: 'mex', id: newMessageId(), t: now() },
      content: [
        { tag: 'update', attrs: { op_name: opName }, content: Buffer.from(JSON.stringify({ data })) },
      ],
    });
  }

  /**
   * `from` calls `to`: every device linked to `to` gets the call offer as the network sends it (the
   * caller by LID, its phone number in `caller_pn`; a `<video/>` child for a video call). Answers the
   * call id.
   */
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

  /** The caller gives up on a ringing call (`timeout`: it rang out). */
  hangUp(from: FakeUser, to: FakeUser, callId: string, reason?: 'timeout'): void {
    this.callStep(from, to, {
      tag: 'terminate',
      attrs: { 'call-id': callId, 'call-creator': from.lidJid(), ...(reason ? { reason } : {}) },
    });
  }

  private callStep(from: FakeUser, to: FakeUser, step: BinaryNode) {
    for (const c of to.companions.values())
      this.deliver(c, {
        tag: 'call',
        attrs: { from: from.lidJid(), id: newMessageId(), t: now(), notify: from.name },
        content: [step],
      });
  }

  async close(): Promise<void> {
    for (const ws of this.server.clients) ws.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ——— Switchboard: what users do ———

  sendFromPhone(from: FakeUser, to: FakeUser, message: proto.IMessage, opts: SendOptions): Promise<string> {
    const id = opts.id ?? newMessageId();
    const t = now();
    const sender: Record<string, string> =
      opts.addressing === 'pn'
        ? { from: from.pnJid(), sender_lid: from.lidJid() }
        : { from: from.lidJid(), sender_pn: from.pnJid(), addressing_mode: 'lid' };
    return this.inOrder(async () => {
      for (const c of opts.only ? [opts.only] : to.companions.values()) {
        const { type, ciphertext } = await sealForCompanion(from, to, c, message);
        this.deliver(c, {
          tag: 'message',
          attrs: { ...sender, id, t, type: 'text', notify: from.name },
          content: [{ tag: 'enc', attrs: { v: '2', type }, content: ciphertext }],
        });
      }
      return id;
    });
  }

  /**
   * A message its recipient's devices cannot decrypt: the `enc` holds bytes that are no Signal
   * message of any session (as after the sender's phone lost its session state). A device answers
   * with a retry receipt; the sending phone then sends `message` again with the same id, encrypted
   * properly (see `node`, `receipt`), as a real phone does.
   */
  sendUndecryptable(
    from: FakeUser,
    to: FakeUser,
    message: proto.IMessage,
    opts: SendOptions,
  ): Promise<string> {
    const id = opts.id ?? newMessageId();
    const t = now();
    this.retryable.set(id, { from, to, message, opts });
    const sender: Record<string, string> =
      opts.addressing === 'pn'
        ? { from: from.pnJid(), sender_lid: from.lidJid() }
        : { from: from.lidJid(), sender_pn: from.pnJid(), addressing_mode: 'lid' };
    return this.inOrder(async () => {
      for (const c of opts.only ? [opts.only] : to.companions.values()) {
        this.deliver(c, {
          tag: 'message',
          attrs: { ...sender, id, t, type: 'text', notify: from.name },
          content: [{ tag: 'enc', attrs: { v: '2', type: 'msg' }, content: randomBytes(64) }],
        });
      }
      return id;
    });
  }

  /** A device's retry receipt for a message `sendUndecryptable` sent: its phone sends it again. */
  private answerRetry(c: Companion, node: BinaryNode): void {
    const pending = node.attrs.type === 'retry' ? this.retryable.get(node.attrs.id ?? '') : undefined;
    if (!pending || c.user !== pending.to || this.ignoreRetries) return;
    const id = node.attrs.id ?? '';
    this.resent.push(id);
    void this.sendFromPhone(pending.from, pending.to, pending.message, {
      ...pending.opts,
      id,
      only: c,
    }).catch((err) => {
      this.errors.push(err);
      this.emit('relay-error', err);
    });
  }

  ownFromPhone(me: FakeUser, to: FakeUser, text: string, opts: SendOptions): Promise<string> {
    const id = opts.id ?? newMessageId();
    const t = now();
    // The phone's copy for its own other devices: from itself, with the chat as `recipient`, the
    // message wrapped as a deviceSentMessage (Baileys unwraps it and marks the message fromMe).
    const message: proto.IMessage = {
      deviceSentMessage: { destinationJid: to.pnJid(), message: { conversation: text } },
    };
    return this.inOrder(async () => {
      for (const c of opts.only ? [opts.only] : me.companions.values()) {
        const { type, ciphertext } = await sealForCompanion(me, me, c, message);
        this.deliver(c, {
          tag: 'message',
          attrs: {
            from: me.lidJid(),
            sender_pn: me.pnJid(),
            addressing_mode: 'lid',
            recipient: to.pnJid(),
            id,
            t,
            type: 'text',
          },
          content: [{ tag: 'enc', attrs: { v: '2', type }, content: ciphertext }],
        });
      }
      return id;
    });
  }

  receiptFromPhone(from: FakeUser, to: FakeUser, ids: string[], type?: 'read' | 'played'): void {
    const [first, ...rest] = ids;
    if (!first) return;
    // Receipts name the sender the way the message named the chat.
    const addressedAs = from.received.find((m) => m.id === first)?.to;
    const fromJid = addressedAs && this.userOf(addressedAs) === from ? addressedAs : from.pnJid();
    for (const c of to.companions.values()) {
      this.deliver(c, {
        tag: 'receipt',
        attrs: { from: fromJid, id: first, t: now(), ...(type ? { type } : {}) },
        ...(rest.length
          ? {
              content: [
                { tag: 'list', attrs: {}, content: rest.map((id) => ({ tag: 'item', attrs: { id } })) },
              ],
            }
          : {}),
      });
    }
  }

  retryFromPhone(from: FakeUser, to: FakeUser, id: string): void {
    const addressedAs = from.received.find((m) => m.id === id)?.to;
    const fromJid = addressedAs && this.userOf(addressedAs) === from ? addressedAs : from.lidJid();
    const t = now();
    const regId = Buffer.alloc(4);
    regId.writeUInt32BE(from.phone.registrationId);
    for (const c of to.companions.values()) {
      this.deliver(c, {
        tag: 'receipt',
        attrs: { from: fromJid, id, t, type: 'retry' },
        content: [
          { tag: 'retry', attrs: { count: '1', id, t, v: '1' } },
          { tag: 'registration', attrs: {}, content: regId },
        ],
      });
    }
  }

  scanQr(user: FakeUser, qr: string): Promise<Companion> {
    return this.linking.scanQr(user, qr);
  }

  enterPairingCode(user: FakeUser, code: string): Promise<Companion> {
    return this.linking.enterPairingCode(user, code);
  }

  // ——— connection handling ———

  private hello(link: Link, payload: proto.ClientPayload, noiseKey: Buffer) {
    const reg = payload.devicePairingData;
    if (reg && !payload.passive) {
      this.linking.register(link, reg, noiseKey, this.qrRefs ?? 5);
      return;
    }
    const v = payload.userAgent?.appVersion;
    const announced = [v?.primary ?? 0, v?.secondary ?? 0, v?.tertiary ?? 0];
    const outdated = this.minClientVersion ? olderThan(announced, this.minClientVersion) : false;
    const refusal = outdated ? 405 : this.loginRefusals.shift();
    if (refusal !== undefined) {
      link.send({ tag: 'failure', attrs: { reason: String(refusal), location: 'fake' } });
      return;
    }
    const user = this.users.get(String(payload.username ?? ''));
    const c = user?.companions.get(payload.device ?? 0);
    if (!user || !c?.noiseKey.equals(noiseKey)) {
      // An unknown or removed device: the network says logged out.
      link.send({ tag: 'failure', attrs: { reason: '401', location: 'fake' } });
      return;
    }
    if (c.link) this.disconnect(c, 440); // a second login replaces the first
    c.link = link;
    c.online = false;
    this.companionOf.set(link, c);
    link.send({
      tag: 'success',
      attrs: { t: now(), lid: user.lidJid(c.device), props: '0', creation: now() },
    });
    this.emit('login', c);
    const queued = c.queue.splice(0);
    for (const stanza of queued) link.send(stanza);
    if (this.holdOfflineDone) this.heldOfflineDone.set(c, queued.length);
    else this.offlineDone(c, queued.length);
  }

  /** Sends the offline-done a login held back (`holdOfflineDone`), if its link is still up. */
  releaseOfflineDone(): void {
    this.holdOfflineDone = false;
    for (const [c, count] of this.heldOfflineDone) if (c.link) this.offlineDone(c, count);
    this.heldOfflineDone.clear();
  }

  /** Offline-done: without it Baileys holds its events (for up to 30 s). Then the device is online. */
  private offlineDone(c: Companion, count: number) {
    c.link?.send({
      tag: 'ib',
      attrs: { from: S_WHATSAPP_NET },
      content: [{ tag: 'offline', attrs: { count: String(count) } }],
    });
    c.online = true;
    this.emit('online', c);
    if (!c.historySent && this.opts.historySync !== false) {
      c.historySent = true;
      void this.sendHistorySync(c).catch((err) => this.errors.push(err));
    }
  }

  /**
   * The phone's initial history sync for a new device, inline (no media download): no chats, the
   * LID of every other user. Once Baileys has processed it, later logins skip the 20 s sync wait.
   */
  private async sendHistorySync(c: Companion) {
    const syncType = proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP;
    // The account's chats, one conversation per contact, each message as the contact sent it.
    const byContact = new Map<FakeUser, typeof c.user.history>();
    for (const h of c.user.history) byContact.set(h.from, [...(byContact.get(h.from) ?? []), h]);
    const conversations = [...byContact].map(([from, items]) => ({
      id: from.pnJid(),
      lidJid: from.lidJid(),
      name: from.name,
      messages: items.map((h) => ({
        message: {
          key: { remoteJid: from.pnJid(), fromMe: false, id: h.id ?? newMessageId() },
          message: { conversation: h.text },
          messageTimestamp: Math.floor(h.at.getTime() / 1000),
          pushName: from.name,
        },
      })),
    }));
    const history = proto.HistorySync.encode({
      syncType,
      conversations,
      phoneNumberToLidMappings: [...this.users.values()]
        .filter((u) => u !== c.user)
        .map((u) => ({ pnJid: u.pnJid(), lidJid: u.lidJid() })),
    }).finish();
    await this.sendFromPhone(
      c.user,
      c.user,
      {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
          historySyncNotification: { syncType, initialHistBootstrapInlinePayload: deflateSync(history) },
        },
      },
      { only: c },
    );
  }

  private closed(link: Link) {
    this.linking.forget(link);
    const c = this.companionOf.get(link);
    this.companionOf.delete(link);
    if (c && c.link === link) {
      c.link = undefined;
      c.online = false;
      this.emit('offline', c);
    }
  }

  private node(link: Link, node: BinaryNode) {
    switch (node.tag) {
      case 'iq':
        this.iq(link, node);
        return;
      case 'message':
        void this.inOrder(() => this.relay(link, node)).catch((err) => {
          this.errors.push(err);
          this.emit('relay-error', err);
        });
        return;
      case 'receipt': {
        const c = this.companionOf.get(link);
        if (c) {
          this.receipts.push({ from: c, node });
          this.emit('receipt', { from: c, node });
          this.answerRetry(c, node);
        }
        return;
      }
      case 'call': {
        // A device declining (or otherwise answering) a call: recorded, and acked by id as the
        // network does (Baileys' rejectCall waits for it).
        const c = this.companionOf.get(link);
        if (c) {
          this.callStanzas.push({ from: c, node });
          this.emit('call', { from: c, node });
        }
        link.send({ tag: 'ack', attrs: { id: node.attrs.id ?? '', class: 'call', from: S_WHATSAPP_NET } });
        return;
      }
      default:
        return; // acks, presence, chat state, telemetry (ib): nothing to answer
    }
  }

  private iq(link: Link, iq: BinaryNode) {
    const id = iq.attrs.id ?? '';
    if (iq.attrs.type === 'result' || iq.attrs.type === 'error') {
      this.linking.reply(id, iq);
      return;
    }
    const first = Array.isArray(iq.content) ? iq.content[0] : undefined;
    this.iqLog.push(`${iq.attrs.xmlns}/${first?.tag ?? ''}`);
    if (this.unansweredIqs.has(`${iq.attrs.xmlns}/${first?.tag ?? ''}`)) return;
    if (iq.attrs.xmlns === 'md') {
      link.send(this.md(link, iq, first));
      return;
    }
    link.send(answerIq(iq, this.companionOf.get(link), this));
  }

  /** Device management: pairing-code stages and logout. */
  private md(link: Link, iq: BinaryNode, first: BinaryNode | undefined): BinaryNode {
    const stage = first && this.linking.codeStage(link, iq, first);
    if (stage) return stage;
    if (first?.tag === 'remove-companion-device') {
      const c = this.companionOf.get(link);
      if (c) {
        c.user.companions.delete(c.device);
        this.emit('unlinked', c);
      }
    }
    return result(iq);
  }

  /** A message from a companion: ack it, then let each addressed simulated device decrypt its copy. */
  private async relay(link: Link, node: BinaryNode) {
    const c = this.companionOf.get(link);
    if (!c) return;
    const { id = '', to = '' } = node.attrs;
    if (this.toLose > 0) {
      this.toLose--;
      this.lost.push(id);
      return;
    }
    const target = this.userOf(to);
    const i = this.sendErrors.findIndex((e) => !e.to || e.to === target);
    const failure = i >= 0 ? this.sendErrors.splice(i, 1)[0] : undefined;
    link.send({
      tag: 'ack',
      attrs: { class: 'message', id, from: to, t: now(), ...(failure ? { error: failure.error } : {}) },
    });
    if (failure) return;
    const copies = getBinaryNodeChildren(getBinaryNodeChild(node, 'participants'), 'to').map((p) => ({
      jid: p.attrs.jid ?? '',
      enc: getBinaryNodeChild(p, 'enc'),
    }));
    const direct = getBinaryNodeChild(node, 'enc');
    if (direct) copies.push({ jid: to, enc: direct });
    const sender = c.user.lidJid(c.device);
    for (const { jid, enc } of copies) {
      const user = this.userOf(jid);
      const device = jidDecode(jid)?.device ?? 0;
      const type = enc?.attrs.type;
      // Only phones are simulated; copies for other companions are not forwarded.
      if (!user || device !== 0 || !(enc?.content instanceof Uint8Array)) continue;
      if (type !== 'pkmsg' && type !== 'msg') continue;
      const message = await user.phone.decrypt(sender, type, enc.content);
      const text = textOf(message);
      const received: ReceivedMessage = {
        id,
        from: c,
        to,
        device,
        message,
        ...(text !== undefined ? { text } : {}),
      };
      user.received.push(received);
      this.emit('message', received);
    }
  }

  // ——— helpers ———

  private deliver(c: Companion, stanza: BinaryNode) {
    if (c.link && c.online) c.link.send(stanza);
    else c.queue.push({ ...stanza, attrs: { ...stanza.attrs, offline: '1' } });
  }

  private inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.serial.then(fn, fn);
    this.serial = run.catch(() => undefined);
    return run;
  }
}

/** Whether version `a` comes before `b` (compared part by part). */
function olderThan(a: number[], b: number[]): boolean {
  const i = a.findIndex((n, k) => n !== b[k]);
  return i >= 0 && (a[i] ?? 0) < (b[i] ?? 0);
}

export async function startFakeNetwork(opts: FakeNetworkOptions = {}): Promise<FakeNetwork> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws/chat' });
  await once(server, 'listening');
  return new FakeNetwork(server, opts);
}
