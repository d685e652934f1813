import { randomBytes } from 'node:crypto';
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  Curve,
  derivePairingCodeKey,
  hkdf,
  hmacSign,
  type KeyPair,
  proto,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  WA_ADV_DEVICE_SIG_PREFIX,
} from '@whiskeysockets/baileys';

/** What a linking companion gave the QR (or pairing code) that the phone needs to sign it in. */
export interface QrData {
  ref: string;
  noiseKey: Buffer;
  identityKey: Buffer;
  advSecret: Buffer;
}

/** Reads the QR text Baileys shows: `…#ref,noiseKey,identityKey,advSecret,platform` (base64 keys). */
export function parseQr(qr: string): QrData {
  const [ref, noise, identity, adv] = qr.slice(qr.indexOf('#') + 1).split(',');
  if (!ref || !noise || !identity || !adv) throw new Error(`not a linking QR: ${qr}`);
  return {
    ref,
    noiseKey: Buffer.from(noise, 'base64'),
    identityKey: Buffer.from(identity, 'base64'),
    advSecret: Buffer.from(adv, 'base64'),
  };
}

/**
 * The phone's signature over a new companion device (ADV): the account key vouches for the
 * companion's identity key, and the HMAC with the companion's adv secret proves the phone saw the
 * QR (or code). Baileys checks both in `configureSuccessfulPairing`.
 */
export function signDeviceIdentity(opts: {
  account: KeyPair;
  companionIdentity: Uint8Array;
  advSecret: Uint8Array;
  keyIndex: number;
}): Uint8Array {
  const details = proto.ADVDeviceIdentity.encode({
    rawId: randomBytes(4).readUInt32BE(0),
    timestamp: Math.floor(Date.now() / 1000),
    keyIndex: opts.keyIndex,
    accountType: proto.ADVEncryptionType.E2EE,
    deviceType: proto.ADVEncryptionType.E2EE,
  }).finish();
  const signed = proto.ADVSignedDeviceIdentity.encode({
    details,
    accountSignatureKey: opts.account.public,
    accountSignature: Curve.sign(
      opts.account.private,
      Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, details, opts.companionIdentity]),
    ),
  }).finish();
  return proto.ADVSignedDeviceIdentityHMAC.encode({
    details: signed,
    hmac: hmacSign(signed, opts.advSecret),
    accountType: proto.ADVEncryptionType.E2EE,
  }).finish();
}

/** Checks the companion's counter-signature in its pair-device-sign reply. */
export function verifyDeviceSignature(signedIdentity: Uint8Array, companionIdentity: Uint8Array): boolean {
  const account = proto.ADVSignedDeviceIdentity.decode(signedIdentity);
  if (!account.details || !account.deviceSignature) return false;
  return Curve.verify(
    companionIdentity,
    Buffer.concat([
      WA_ADV_DEVICE_SIG_PREFIX,
      account.details,
      companionIdentity,
      account.accountSignatureKey ?? Buffer.alloc(0),
    ]),
    account.deviceSignature,
  );
}

/** salt(32) ‖ iv(16) ‖ AES-CTR(key), keyed by the pairing code: how both sides wrap ephemeral keys. */
export async function wrapWithCode(code: string, publicKey: Uint8Array): Promise<Buffer> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const key = await derivePairingCodeKey(code, salt);
  return Buffer.concat([salt, iv, aesEncryptCTR(publicKey, key, iv)]);
}

export async function unwrapWithCode(code: string, wrapped: Uint8Array): Promise<Buffer> {
  const buf = Buffer.from(wrapped);
  const key = await derivePairingCodeKey(code, buf.subarray(0, 32));
  return aesDecryptCTR(buf.subarray(48, 80), key, buf.subarray(32, 48));
}

/**
 * The phone's side of the pairing-code key exchange: decrypts the companion's key bundle
 * (companion_finish) and derives the adv secret the companion derived.
 */
export function finishCodePairing(opts: {
  primaryEphemeral: KeyPair;
  companionEphemeralPublic: Uint8Array;
  account: KeyPair;
  wrappedBundle: Uint8Array;
}): { companionIdentity: Buffer; advSecret: Buffer } {
  const companionShared = Curve.sharedKey(opts.primaryEphemeral.private, opts.companionEphemeralPublic);
  const bundle = Buffer.from(opts.wrappedBundle);
  const key = hkdf(companionShared, 32, {
    salt: bundle.subarray(0, 32),
    info: 'link_code_pairing_key_bundle_encryption_key',
  });
  const plain = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), Buffer.alloc(0));
  const companionIdentity = plain.subarray(0, 32);
  const random = plain.subarray(64, 96);
  const identityShared = Curve.sharedKey(opts.account.private, companionIdentity);
  const advSecret = Buffer.from(
    hkdf(Buffer.concat([companionShared, identityShared, random]), 32, { info: 'adv_secret' }),
  );
  return { companionIdentity: Buffer.from(companionIdentity), advSecret };
}
