import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import {
  type BinaryNode,
  Curve,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  jidDecode,
  type proto,
} from '@whiskeysockets/baileys';
import { result } from './iq.ts';
import type { Link } from './link.ts';
import {
  pairDeviceStanza,
  pairSuccessStanza,
  passkeyPrologueStanza,
  primaryCodeStanza,
} from './linking-stanzas.ts';
import {
  finishCodePairing,
  parseQr,
  signDeviceIdentity,
  unwrapWithCode,
  verifyDeviceSignature,
  wrapWithCode,
} from './pairing.ts';
import { streamError, tag } from './stanzas.ts';
import type { Companion, DeviceKeys, FakeUser } from './users.ts';

/** A client that registered (no account yet) and waits for a phone to link it. */
export interface Registration {
  link: Link;
  noiseKey: Buffer;
  keys: DeviceKeys;
  refs: string[];
  /** Set once the client asked for a pairing code (companion_hello). */
  codeRequest?: { phone: string; wrappedEphemeral: Buffer; ref: string };
}

/**
 * Linking new companions: registration (QR refs), the phone scanning a QR or taking a pairing
 * code, pair-success and the companion's counter-signature, then 515.
 */
export class Linking {
  private readonly registrations = new Map<Link, Registration>();
  private readonly replies = new Map<string, (node: BinaryNode) => void>();

  constructor(
    private readonly events: EventEmitter,
    private readonly replyTimeoutMs: number,
  ) {}

  pending(): Registration[] {
    return [...this.registrations.values()];
  }

  /** A client without an account sent its registration payload: it gets `refs` QR refs. */
  register(
    link: Link,
    reg: proto.ClientPayload.IDevicePairingRegistrationData,
    noiseKey: Buffer,
    refs: number,
  ): void {
    if (!reg.eRegid || !reg.eIdent || !reg.eSkeyId || !reg.eSkeyVal || !reg.eSkeySig) {
      link.send({ tag: 'failure', attrs: { reason: '400' } });
      return;
    }
    const r: Registration = {
      link,
      noiseKey,
      keys: {
        registrationId: Buffer.from(reg.eRegid).readUInt32BE(0),
        identity: Buffer.from(reg.eIdent),
        signedPreKey: {
          keyId: Buffer.from(reg.eSkeyId).readUIntBE(0, reg.eSkeyId.length),
          public: Buffer.from(reg.eSkeyVal),
          signature: Buffer.from(reg.eSkeySig),
        },
        preKeys: new Map(),
      },
      refs: [],
    };
    this.registrations.set(link, r);
    this.sendRefs(r, refs);
    this.events.emit('registering', r);
  }

  forget(link: Link): void {
    this.registrations.delete(link);
  }

  /** A client's answer to an IQ the network sent; true if one was waited for. */
  reply(id: string, node: BinaryNode): boolean {
    const waiting = this.replies.get(id);
    waiting?.(node);
    return !!waiting;
  }

  /** The pairing-code stages of `md` IQs (companion_hello, companion_finish); undefined for others. */
  codeStage(link: Link, iq: BinaryNode, first: BinaryNode): BinaryNode | undefined {
    if (first.tag !== 'link_code_companion_reg') return undefined;
    const r = this.registrations.get(link);
    const stage = first.attrs.stage;
    if (r && stage === 'companion_hello') {
      const wrapped = getBinaryNodeChildBuffer(first, 'link_code_pairing_wrapped_companion_ephemeral_pub');
      const phone = jidDecode(first.attrs.jid)?.user;
      if (!wrapped || !phone) return { ...result(iq), attrs: { ...result(iq).attrs, type: 'error' } };
      const ref = tag();
      r.codeRequest = { phone, wrappedEphemeral: Buffer.from(wrapped), ref };
      this.events.emit('pairing-code-requested', r);
      return result(iq, [
        {
          tag: 'link_code_companion_reg',
          attrs: {},
          content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(ref) }],
        },
      ]);
    }
    if (stage === 'companion_finish') {
      const ref = getBinaryNodeChildBuffer(first, 'link_code_pairing_ref');
      if (ref) this.replies.get(`finish:${Buffer.from(ref).toString()}`)?.(iq);
    }
    return result(iq);
  }

  /** The phone scans the QR a waiting client shows (its keys must be that client's). */
  async scanQr(user: FakeUser, qr: string): Promise<Companion> {
    const data = parseQr(qr);
    const r = this.pending().find((x) => x.refs.includes(data.ref));
    if (!r) throw new Error('the QR names no client waiting to link (expired, or another network)');
    if (!r.noiseKey.equals(data.noiseKey) || !Buffer.from(r.keys.identity).equals(data.identityKey))
      throw new Error('the QR keys do not match the client that registered');
    if (user.passkeyGated) return this.askPasskey(r);
    return this.pair(user, r, data.advSecret);
  }

  /**
   * The user types the code into the phone: both sides exchange ephemeral keys wrapped with the
   * code, the client sends its key bundle (companion_finish), the phone derives the adv secret.
   */
  async enterPairingCode(user: FakeUser, code: string): Promise<Companion> {
    const r = await this.codeRequestFor(user.number);
    if (!r?.codeRequest) throw new Error(`no client asked for a pairing code for ${user.number}`);
    if (user.passkeyGated) return this.askPasskey(r);
    const companionEphemeral = await unwrapWithCode(code, r.codeRequest.wrappedEphemeral);
    const primaryEphemeral = Curve.generateKeyPair();
    const finished = this.awaitReply(`finish:${r.codeRequest.ref}`);
    r.link.send(
      primaryCodeStanza(
        r.codeRequest.ref,
        user.phone.identity.public,
        await wrapWithCode(code, primaryEphemeral.public),
      ),
    );
    const finish = getBinaryNodeChild(await finished, 'link_code_companion_reg');
    const wrappedBundle = getBinaryNodeChildBuffer(finish, 'link_code_pairing_wrapped_key_bundle');
    if (!wrappedBundle) throw new Error('companion_finish without a key bundle');
    let derived: ReturnType<typeof finishCodePairing>;
    try {
      derived = finishCodePairing({
        primaryEphemeral,
        companionEphemeralPublic: companionEphemeral,
        account: user.phone.identity,
        wrappedBundle,
      });
    } catch {
      throw new Error('wrong pairing code: the key bundle does not decrypt');
    }
    if (!derived.companionIdentity.equals(Buffer.from(r.keys.identity)))
      throw new Error('the key bundle names another identity than the client that registered');
    return this.pair(user, r, derived.advSecret);
  }

  /** pair-device with `count` fresh refs: Baileys shows one QR per ref, the first at once. */
  sendRefs(r: Registration, count: number) {
    const refs = Array.from({ length: count }, () => `2@${randomBytes(24).toString('base64')}`);
    r.refs.push(...refs);
    r.link.send(pairDeviceStanza(refs));
  }

  /**
   * A passkey-gated account: instead of pair-success the linking client gets the passkey prologue
   * (WebAuthn request options for the companion to answer with the user's passkey), and the phone
   * shows "continue on your other device". A client that cannot answer it never links; the scan
   * rejects. Only the notification's type is modelled faithfully; its payload is a stand-in.
   */
  private askPasskey(r: Registration): Promise<Companion> {
    r.link.send(passkeyPrologueStanza());
    this.events.emit('passkey-requested', r);
    return Promise.reject(new Error('the account needs a passkey to link a device'));
  }

  /** Links the registered client to `user` as a new device: pair-success, its counter-signature, 515. */
  private async pair(user: FakeUser, r: Registration, advSecret: Uint8Array): Promise<Companion> {
    const device = user.nextDevice++;
    const id = tag();
    const reply = this.awaitReply(id);
    const identity = signDeviceIdentity({
      account: user.phone.identity,
      companionIdentity: r.keys.identity,
      advSecret,
      keyIndex: device,
    });
    r.link.send(pairSuccessStanza(id, user, device, identity));
    const answer = await reply;
    const signed = getBinaryNodeChildBuffer(
      getBinaryNodeChild(answer, 'pair-device-sign'),
      'device-identity',
    );
    if (!signed || !verifyDeviceSignature(signed, r.keys.identity))
      throw new Error('the companion did not counter-sign its device identity');
    const c: Companion = {
      user,
      device,
      keyIndex: device,
      noiseKey: r.noiseKey,
      keys: r.keys,
      online: false,
      queue: [],
      historySent: false,
    };
    user.companions.set(device, c);
    this.registrations.delete(r.link);
    // Linked: the client must reconnect and log in with its new creds.
    r.link.send(streamError(515));
    this.events.emit('paired', c);
    return c;
  }

  /**
   * The registration that asked for a code for this number. Baileys hands the code to the app
   * before its request reaches the server (it sends without waiting for the answer), so a phone
   * typing at once may be ahead of the request: wait for it like awaitReply waits for answers.
   */
  private codeRequestFor(phone: string): Promise<Registration | undefined> {
    const has = (x: Registration) => x.codeRequest?.phone === phone;
    const found = this.pending().find(has);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const onRequest = (r: Registration) => {
        if (!has(r)) return;
        clearTimeout(timer);
        this.events.off('pairing-code-requested', onRequest);
        resolve(r);
      };
      const timer = setTimeout(() => {
        this.events.off('pairing-code-requested', onRequest);
        resolve(undefined);
      }, this.replyTimeoutMs);
      this.events.on('pairing-code-requested', onRequest);
    });
  }

  private awaitReply(key: string): Promise<BinaryNode> {
    const ms = this.replyTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.replies.delete(key);
        reject(new Error(`no client reply for ${key} within ${ms} ms`));
      }, ms);
      timer.unref();
      this.replies.set(key, (node) => {
        clearTimeout(timer);
        this.replies.delete(key);
        resolve(node);
      });
    });
  }
}
