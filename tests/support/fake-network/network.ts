import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type BinaryNode, jidDecode } from '@whiskeysockets/baileys';
import { WebSocketServer } from 'ws';
import { makeServerIdentity, type ServerIdentity, trustTestRoot } from './certs.ts';
import type { Directory } from './iq.ts';
import { Link } from './link.ts';
import { Linking, type Registration } from './linking.ts';
import { Links } from './links.ts';
import { Outbox } from './outbox.ts';
import { Phones } from './phones.ts';
import { SendFaults } from './relay.ts';
import type { PreKeyBundle } from './sim-device.ts';
import { type Disconnect, streamError } from './stanzas.ts';
import { type Companion, companionBundle, FakeUser } from './users.ts';

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

/**
 * A small fake of the messaging network's edge that a real Baileys client connects to over
 * `ws://`: Noise handshake with a test certificate chain, QR and pairing-code linking, login with
 * saved creds, IQ answers, Signal-encrypted messages both ways with simulated phones, receipts,
 * acks (also error acks), offline queues and server-initiated disconnects.
 * Test infrastructure only; see README.md in this folder.
 */
export class FakeNetwork extends EventEmitter implements Directory {
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
  /** Call stanzas companions sent (a `reject` declining a call), in order. */
  readonly callStanzas: Array<{ from: Companion; node: BinaryNode }> = [];
  /** Messages from companions the network could not handle (e.g. that failed to decrypt). */
  readonly errors: unknown[] = [];
  private readonly identity: ServerIdentity;
  private readonly users = new Map<string, FakeUser>();
  private readonly byLid = new Map<string, FakeUser>();
  private readonly linking: Linking;
  private readonly loginRefusals: number[] = [];
  private readonly faults = new SendFaults();
  /** Ids of the messages `loseNextSends` made the network lose, in order. */
  readonly lost = this.faults.lost;
  private lidSeq = 200_000_000_000_000;
  private down = false;
  private readonly outbox = new Outbox();
  private readonly phones: Phones;
  private readonly links: Links;

  constructor(
    private readonly server: WebSocketServer,
    opts: FakeNetworkOptions = {},
  ) {
    super();
    this.qrRefs = opts.qrRefs;
    this.linking = new Linking(this, opts.replyTimeoutMs ?? 10_000);
    this.phones = new Phones(this, this.outbox, this.linking);
    this.links = new Links(this, {
      users: this.users,
      linking: this.linking,
      phones: this.phones,
      faults: this.faults,
      outbox: this.outbox,
      loginRefusals: this.loginRefusals,
      historySync: opts.historySync !== false,
    });
    const { port } = server.address() as AddressInfo;
    this.url = `ws://127.0.0.1:${port}/ws/chat`;
    this.identity = makeServerIdentity();
    this.rootPublicKey = this.identity.rootPublicKey.toString('hex');
    server.on('connection', (ws) => {
      // An outage: the connection is dropped before a byte is answered.
      if (this.down) return void ws.terminate();
      new Link(ws, this.identity, {
        onHello: (link, payload, noiseKey) => this.links.hello(link, payload, noiseKey),
        onNode: (link, node) => this.links.node(link, node),
        onClose: (link) => this.links.closed(link),
      });
    });
  }

  /** Makes Baileys in this process accept the network's certificate; returns the undo. */
  trustInThisProcess(): () => void {
    return trustTestRoot(this.identity.rootPublicKey);
  }

  addUser(opts: { phone: string; name?: string }): FakeUser {
    const lid = String(this.lidSeq++);
    const user = new FakeUser(this.phones, opts.phone, lid, opts.name ?? `User ${opts.phone.slice(-4)}`);
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
   * The lowest client version the network accepts: a login announcing an older one is refused with
   * 405, as the real network does when it raises its minimum. Unset: any version.
   */
  minClientVersion?: [number, number, number];

  /** IQs (`xmlns/first child`, e.g. `w:m/media_conn`: the media upload hosts) left unanswered. */
  readonly unansweredIqs = new Set<string>();

  /**
   * The next login is refused with `<failure reason=…>` (the real network answers an outdated
   * client version with 405, a banned account with 403).
   */
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
    this.faults.lose(count);
  }

  /** The next message a companion sends (to `to`, if given) is refused with an error ack instead of delivered. */
  failNextSend(error = '479', to?: FakeUser): void {
    this.faults.fail(error, to);
  }

  /**
   * A server notification of type `mex` (GraphQL push) with `data` as its JSON payload: how the
   * network tells an account of its reach-out time-lock (`NotificationUserReachoutTimelockUpdate`)
   * and new-chat capping (`MessageCappingInfoNotification`).
   */
  notifyMex(c: Companion, opName: string, data: Record<string, unknown>): void {
    this.phones.notifyMex(c, opName, data);
  }

  /**
   * `from` calls `to`: every device linked to `to` gets the call offer as the network sends it (the
   * caller by LID, its phone number in `caller_pn`; a `<video/>` child for a video call). Answers the
   * call id.
   */
  ring(from: FakeUser, to: FakeUser, opts: { video?: boolean } = {}): string {
    return this.phones.ring(from, to, opts);
  }

  /** The caller gives up on a ringing call (`timeout`: it rang out). */
  hangUp(from: FakeUser, to: FakeUser, callId: string, reason?: 'timeout'): void {
    this.phones.hangUp(from, to, callId, reason);
  }

  /** While set, phones ignore retry receipts for `sendUndecryptable` messages (a sender gone offline). */
  get ignoreRetries(): boolean {
    return this.phones.ignoreRetries;
  }
  set ignoreRetries(on: boolean) {
    this.phones.ignoreRetries = on;
  }

  /** Ids of the messages a phone sent again after a device's retry receipt, in order. */
  get resent(): readonly string[] {
    return this.phones.resent;
  }

  /** Sends the offline-done a login held back (`holdOfflineDone`), if its link is still up. */
  releaseOfflineDone(): void {
    this.holdOfflineDone = false;
    this.links.releaseOfflineDone();
  }

  async close(): Promise<void> {
    for (const ws of this.server.clients) ws.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export async function startFakeNetwork(opts: FakeNetworkOptions = {}): Promise<FakeNetwork> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws/chat' });
  await once(server, 'listening');
  return new FakeNetwork(server, opts);
}
