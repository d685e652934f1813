import type { BinaryNode, proto } from '@whiskeysockets/baileys';
import { lidJid, userJid } from '#shared/phone/jid';
import type { Link } from './link.ts';
import { encryptPollVote } from './poll-vote.ts';
import { type PreKeyBundle, SimDevice } from './sim-device.ts';

/** The keys a real client (a linked companion) registered and uploaded. */
export interface DeviceKeys {
  registrationId: number;
  identity: Uint8Array;
  signedPreKey: { keyId: number; public: Uint8Array; signature: Uint8Array };
  preKeys: Map<number, Uint8Array>;
}

/** A real client (Baileys) linked to a user's account as device `device`. */
export interface Companion {
  user: FakeUser;
  device: number;
  keyIndex: number;
  noiseKey: Buffer;
  keys: DeviceKeys;
  /** The socket it is logged in on, if any. */
  link?: Link;
  /** Offline-done has been sent on `link`: stanzas go out live rather than into `queue`. */
  online: boolean;
  /** Stanzas for it while it was away; replayed (marked offline) after its next login. */
  queue: BinaryNode[];
  /** The phone has sent it the initial history sync (on its first login). */
  historySent: boolean;
}

/** A message a companion sent that one of the network's simulated devices decrypted. */
export interface ReceivedMessage {
  id: string;
  /** The sending companion. */
  from: Companion;
  /** The stanza's `to` (the chat as the sender addressed it). */
  to: string;
  /** Which of the receiving user's devices decrypted it (0: the phone). */
  device: number;
  message: proto.Message;
  /** The text, if it is one (own-device copies are unwrapped). */
  text?: string;
}

/** What a user asks of the network; implemented by FakeNetwork. */
export interface Switchboard {
  sendFromPhone(from: FakeUser, to: FakeUser, message: proto.IMessage, opts: SendOptions): Promise<string>;
  ownFromPhone(me: FakeUser, to: FakeUser, text: string, opts: SendOptions): Promise<string>;
  sendUndecryptable(
    from: FakeUser,
    to: FakeUser,
    message: proto.IMessage,
    opts: SendOptions,
  ): Promise<string>;
  receiptFromPhone(from: FakeUser, to: FakeUser, ids: string[], type?: 'read' | 'played'): void;
  retryFromPhone(from: FakeUser, to: FakeUser, id: string): void;
  scanQr(user: FakeUser, qr: string): Promise<Companion>;
  enterPairingCode(user: FakeUser, code: string): Promise<Companion>;
}

export interface SendOptions {
  id?: string;
  /** How the stanza names the sender: by LID with the phone number alongside (default), or by phone. */
  addressing?: 'lid' | 'pn';
  /** Deliver to this one device of the recipient only. */
  only?: Companion;
}

/**
 * An account on the network: its phone (device 0, played by the network with real Signal keys)
 * and the companions linked to it. Contacts and the account our session links to are both users.
 */
export class FakeUser {
  readonly phone: SimDevice;
  readonly companions = new Map<number, Companion>();
  /** Messages from companions that this user's phone decrypted, in arrival order. */
  readonly received: ReceivedMessage[] = [];
  nextDevice = 1;
  /**
   * The network asks this account for a passkey before it links a device (2026): a scan or a code
   * reaches the linking client as a `passkey_prologue_request` notification, never as pair-success.
   */
  passkeyGated = false;
  /**
   * Chats this account's phone holds: sent to a new device in its initial history sync (inline, as
   * conversations of one-to-one messages the contacts sent), oldest first.
   */
  readonly history: Array<{ from: FakeUser; text: string; at: Date; id?: string }> = [];

  constructor(
    private readonly net: Switchboard,
    /** Phone number digits. */
    readonly number: string,
    /** LID user part (digits). */
    readonly lid: string,
    readonly name: string,
  ) {
    this.phone = new SimDevice();
  }

  pnJid(device = 0): string {
    return userJid(this.number, device);
  }

  lidJid(device = 0): string {
    return lidJid(this.lid, device);
  }

  /** Sends a text from this user's phone to every device linked to `to`; resolves with its id. */
  sendText(to: FakeUser, text: string, opts: SendOptions = {}): Promise<string> {
    return this.net.sendFromPhone(this, to, { conversation: text }, opts);
  }

  /**
   * This user types a message to `to` on their own phone: the network shows it to this user's linked
   * devices as their own message (`fromMe`), as it does for a business answering from its phone.
   */
  sendFromMyPhone(to: FakeUser, text: string, opts: SendOptions = {}): Promise<string> {
    return this.net.ownFromPhone(this, to, text, opts);
  }

  /**
   * Sends a text `to` cannot decrypt (garbage where the Signal message belongs); when a device of
   * `to` asks for it again with a retry receipt, this phone sends it properly with the same id.
   */
  sendUndecryptableText(to: FakeUser, text: string, opts: SendOptions = {}): Promise<string> {
    return this.net.sendUndecryptable(this, to, { conversation: text }, opts);
  }

  send(to: FakeUser, message: proto.IMessage, opts: SendOptions = {}): Promise<string> {
    return this.net.sendFromPhone(this, to, message, opts);
  }

  /**
   * This user votes on a poll `to` sent (as received here): the chosen options, encrypted with the
   * poll's secret for the ids of LID addressing (the default of sendFromPhone). Resolves with the
   * vote's own message id.
   */
  votePoll(to: FakeUser, poll: ReceivedMessage, options: string[], opts: SendOptions = {}): Promise<string> {
    const secret = poll.message.messageContextInfo?.messageSecret;
    if (!secret) throw new Error(`poll ${poll.id} carries no secret`);
    const pn = opts.addressing === 'pn';
    const vote = encryptPollVote({
      pollId: poll.id,
      creatorJid: pn ? to.pnJid() : to.lidJid(),
      voterJid: pn ? this.pnJid() : this.lidJid(),
      secret,
      options,
    });
    return this.net.sendFromPhone(
      this,
      to,
      {
        pollUpdateMessage: {
          pollCreationMessageKey: { remoteJid: to.pnJid(), fromMe: false, id: poll.id },
          vote,
          senderTimestampMs: Date.now(),
        },
      },
      opts,
    );
  }

  /** Delivery (no type) or read receipts from this user's phone for messages `to` sent. */
  sendReceipt(to: FakeUser, ids: string[], type?: 'read' | 'played'): void {
    this.net.receiptFromPhone(this, to, ids, type);
  }

  /**
   * A retry receipt from this user's phone for a message `to` sent ("could not decrypt, send it
   * again"): Baileys answers by sending the message again, built by its `getMessage`.
   */
  requestRetry(to: FakeUser, id: string): void {
    this.net.retryFromPhone(this, to, id);
  }

  /** The phone scans a linking QR; resolves once the new companion has signed in (before its 515). */
  scanQr(qr: string): Promise<Companion> {
    return this.net.scanQr(this, qr);
  }

  /** The user types the pairing code the companion showed into this phone. */
  enterPairingCode(code: string): Promise<Companion> {
    return this.net.enterPairingCode(this, code);
  }

  texts(): string[] {
    return this.received.flatMap((m) => (m.text === undefined ? [] : [m.text]));
  }
}

export function companionBundle(c: Companion): PreKeyBundle {
  const first = c.keys.preKeys.entries().next();
  let preKey: PreKeyBundle['preKey'];
  if (!first.done) {
    const [keyId, pub] = first.value;
    c.keys.preKeys.delete(keyId);
    preKey = { keyId, public: pub };
  }
  return {
    registrationId: c.keys.registrationId,
    identity: c.keys.identity,
    signedPreKey: c.keys.signedPreKey,
    ...(preKey ? { preKey } : {}),
  };
}

/**
 * `message` encrypted by `sender`'s phone for companion `c` of `owner`, opening the Signal session
 * with the companion's bundle first when the phone has none.
 */
export async function sealForCompanion(
  sender: FakeUser,
  owner: FakeUser,
  c: Companion,
  message: proto.IMessage,
) {
  const jid = owner.lidJid(c.device);
  if (!(await sender.phone.hasSession(jid))) await sender.phone.startSession(jid, companionBundle(c));
  return sender.phone.encrypt(jid, message);
}
