import type { BinaryNode, proto } from '@whiskeysockets/baileys';
import { S_WHATSAPP_NET } from '@whiskeysockets/baileys';
import { answerIq, result } from './iq.ts';
import type { Link } from './link.ts';
import type { Linking } from './linking.ts';
import type { FakeNetwork } from './network.ts';
import type { Outbox } from './outbox.ts';
import { offlineDoneStanza } from './phone-stanzas.ts';
import type { Phones } from './phones.ts';
import { relayToPhones, type SendFaults } from './relay.ts';
import { now } from './stanzas.ts';
import type { Companion, FakeUser } from './users.ts';

/** The network's parts a connection works with (private to FakeNetwork, shared with this module). */
export interface LinkParts {
  users: Map<string, FakeUser>;
  linking: Linking;
  phones: Phones;
  faults: SendFaults;
  outbox: Outbox;
  loginRefusals: number[];
  /** Whether a new device gets the initial history sync (FakeNetworkOptions.historySync). */
  historySync: boolean;
}

/**
 * Each companion's connection once its Noise handshake is done: registration or login (refusals,
 * version floor, credentials, a second login replacing the first), the offline replay and its
 * offline-done, the stanzas it sends (IQs, messages, receipts, calls) and its close. network.ts
 * holds the test's controls and the directory of users; this module does what a link asks.
 */
export class Links {
  private readonly companionOf = new Map<Link, Companion>();
  private readonly heldOfflineDone = new Map<Companion, number>();

  constructor(
    private readonly net: FakeNetwork,
    private readonly parts: LinkParts,
  ) {}

  /** Sends the offline-done a login held back (`holdOfflineDone`), if its link is still up. */
  releaseOfflineDone(): void {
    for (const [c, count] of this.heldOfflineDone) if (c.link) this.offlineDone(c, count);
    this.heldOfflineDone.clear();
  }

  hello(link: Link, payload: proto.ClientPayload, noiseKey: Buffer) {
    const reg = payload.devicePairingData;
    if (reg && !payload.passive) {
      this.parts.linking.register(link, reg, noiseKey, this.net.qrRefs ?? 5);
      return;
    }
    const v = payload.userAgent?.appVersion;
    const announced = [v?.primary ?? 0, v?.secondary ?? 0, v?.tertiary ?? 0];
    const outdated = this.net.minClientVersion ? olderThan(announced, this.net.minClientVersion) : false;
    const refusal = outdated ? 405 : this.parts.loginRefusals.shift();
    if (refusal !== undefined) {
      link.send({ tag: 'failure', attrs: { reason: String(refusal), location: 'fake' } });
      return;
    }
    const user = this.parts.users.get(String(payload.username ?? ''));
    const c = user?.companions.get(payload.device ?? 0);
    if (!user || !c?.noiseKey.equals(noiseKey)) {
      // An unknown or removed device: the network says logged out.
      link.send({ tag: 'failure', attrs: { reason: '401', location: 'fake' } });
      return;
    }
    if (c.link) this.net.disconnect(c, 440); // a second login replaces the first
    c.link = link;
    c.online = false;
    this.companionOf.set(link, c);
    link.send({
      tag: 'success',
      attrs: { t: now(), lid: user.lidJid(c.device), props: '0', creation: now() },
    });
    this.net.emit('login', c);
    const queued = c.queue.splice(0);
    for (const stanza of queued) link.send(stanza);
    if (this.net.holdOfflineDone) this.heldOfflineDone.set(c, queued.length);
    else this.offlineDone(c, queued.length);
  }

  /** Offline-done: without it Baileys holds its events (for up to 30 s). Then the device is online. */
  private offlineDone(c: Companion, count: number) {
    c.link?.send(offlineDoneStanza(count));
    c.online = true;
    this.net.emit('online', c);
    if (!c.historySent && this.parts.historySync !== false) {
      c.historySent = true;
      const others = [...this.parts.users.values()].filter((u) => u !== c.user);
      void this.parts.phones.sendHistorySync(c, others).catch((err) => this.net.errors.push(err));
    }
  }

  closed(link: Link) {
    this.parts.linking.forget(link);
    const c = this.companionOf.get(link);
    this.companionOf.delete(link);
    if (c && c.link === link) {
      c.link = undefined;
      c.online = false;
      this.net.emit('offline', c);
    }
  }

  node(link: Link, node: BinaryNode) {
    switch (node.tag) {
      case 'iq':
        this.iq(link, node);
        return;
      case 'message':
        void this.parts.outbox
          .inOrder(() => this.relay(link, node))
          .catch((err) => {
            this.net.errors.push(err);
            this.net.emit('relay-error', err);
          });
        return;
      case 'receipt': {
        const c = this.companionOf.get(link);
        if (c) {
          this.net.receipts.push({ from: c, node });
          this.net.emit('receipt', { from: c, node });
          this.parts.phones.answerRetry(c, node);
        }
        return;
      }
      case 'call': {
        // A device declining (or otherwise answering) a call: recorded, and acked by id as the
        // network does (Baileys' rejectCall waits for it).
        const c = this.companionOf.get(link);
        if (c) {
          this.net.callStanzas.push({ from: c, node });
          this.net.emit('call', { from: c, node });
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
      this.parts.linking.reply(id, iq);
      return;
    }
    const first = Array.isArray(iq.content) ? iq.content[0] : undefined;
    this.net.iqLog.push(`${iq.attrs.xmlns}/${first?.tag ?? ''}`);
    if (this.net.unansweredIqs.has(`${iq.attrs.xmlns}/${first?.tag ?? ''}`)) return;
    if (iq.attrs.xmlns === 'md') {
      link.send(this.md(link, iq, first));
      return;
    }
    link.send(answerIq(iq, this.companionOf.get(link), this.net));
  }

  /** Device management: pairing-code stages and logout. */
  private md(link: Link, iq: BinaryNode, first: BinaryNode | undefined): BinaryNode {
    const stage = first && this.parts.linking.codeStage(link, iq, first);
    if (stage) return stage;
    if (first?.tag === 'remove-companion-device') {
      const c = this.companionOf.get(link);
      if (c) {
        c.user.companions.delete(c.device);
        this.net.emit('unlinked', c);
      }
    }
    return result(iq);
  }

  /** A message from a companion: ack it, then let each addressed simulated phone decrypt its copy. */
  private async relay(link: Link, node: BinaryNode) {
    const c = this.companionOf.get(link);
    if (!c) return;
    await relayToPhones(
      c,
      link,
      node,
      this.parts.faults,
      (jid) => this.net.userOf(jid),
      (r) => this.net.emit('message', r),
    );
  }
}

/** Whether version `a` comes before `b` (compared part by part). */
function olderThan(a: number[], b: number[]): boolean {
  const i = a.findIndex((n, k) => n !== b[k]);
  return i >= 0 && (a[i] ?? 0) < (b[i] ?? 0);
}
