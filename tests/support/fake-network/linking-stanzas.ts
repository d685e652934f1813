import { type BinaryNode, S_WHATSAPP_NET } from '@whiskeysockets/baileys';
import { now, tag } from './stanzas.ts';
import type { FakeUser } from './users.ts';

/**
 * The stanzas the network sends a client it is linking (QR refs, the phone's half of the
 * pairing-code exchange, the passkey prologue, pair-success), spelled in one place so linking.ts
 * reads as the steps of linking rather than how the wire spells them.
 */

/** pair-device with fresh refs: Baileys shows one QR per ref, the first at once. */
export function pairDeviceStanza(refs: string[]): BinaryNode {
  return {
    tag: 'iq',
    attrs: { from: S_WHATSAPP_NET, type: 'set', id: tag(), xmlns: 'md' },
    content: [
      {
        tag: 'pair-device',
        attrs: {},
        content: refs.map((ref) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })),
      },
    ],
  };
}

/** The phone's half of the pairing-code exchange: its identity and its ephemeral key wrapped with the code. */
export function primaryCodeStanza(
  ref: string,
  identityPublic: Uint8Array,
  wrappedEphemeral: Uint8Array,
): BinaryNode {
  return {
    tag: 'notification',
    attrs: { from: S_WHATSAPP_NET, type: 'link_code_companion_reg', id: tag(), t: now() },
    content: [
      {
        tag: 'link_code_companion_reg',
        attrs: {},
        content: [
          { tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(ref) },
          { tag: 'primary_identity_pub', attrs: {}, content: identityPublic },
          { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: wrappedEphemeral },
        ],
      },
    ],
  };
}

/**
 * The passkey prologue (WebAuthn request options for the companion to answer with the user's
 * passkey). Only the notification's type is modelled faithfully; its payload is a stand-in.
 */
export function passkeyPrologueStanza(): BinaryNode {
  const options = { rpId: 'whatsapp.com', userVerification: 'required', challenge: tag() };
  return {
    tag: 'notification',
    attrs: { from: S_WHATSAPP_NET, type: 'passkey_prologue_request', id: tag(), t: now() },
    content: [{ tag: 'passkey_prologue_request', attrs: {}, content: Buffer.from(JSON.stringify(options)) }],
  };
}

/** pair-success for `user`'s new device `device`, with the phone's signed device identity. */
export function pairSuccessStanza(
  id: string,
  user: FakeUser,
  device: number,
  identity: Uint8Array,
): BinaryNode {
  return {
    tag: 'iq',
    attrs: { from: S_WHATSAPP_NET, type: 'set', id, xmlns: 'md', t: now() },
    content: [
      {
        tag: 'pair-success',
        attrs: {},
        content: [
          { tag: 'device-identity', attrs: { 'key-index': String(device) }, content: identity },
          { tag: 'platform', attrs: { name: 'android' } },
          { tag: 'device', attrs: { jid: user.pnJid(device), lid: user.lidJid(device) } },
        ],
      },
    ],
  };
}
