import type { LinkEnd } from '../driver.ts';

/**
 * The network's passkey gate at linking (2026): for some accounts, after the phone scans the QR (or
 * takes the pairing code), the network asks the linking client for a passkey (WebAuthn) with a
 * notification of one of these types instead of pair-success. Baileys 7.0.0-rc14 has no passkey
 * step: its `processNotification` (lib/Socket/messages-recv.js) has no case for them, acks them and
 * drops them, and the link would wait for a pairing that never comes, one QR after another.
 */
export const PASSKEY_NOTIFICATIONS = ['passkey_prologue_request', 'crsc_continuation'] as const;

/** The reason code a passkey-gated linking ends with (docs/sessions.md, "Passkey-gated accounts"). */
export const PASSKEY_REQUIRED = 'PASSKEY_REQUIRED';

/**
 * How linking ends when the network asks for a passkey: for good (`fatal`, the session FAILED), not
 * retried: no later QR or code can link this account through this driver.
 */
export function passkeyEnd(): LinkEnd {
  return {
    kind: 'fatal',
    reason: `${PASSKEY_REQUIRED}: the network asks this account for a passkey to link a device, which this service cannot give; no QR or pairing code will link it while the account requires one`,
  };
}
