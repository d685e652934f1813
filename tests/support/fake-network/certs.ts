import { Curve, type KeyPair, proto, WA_CERT_DETAILS } from '@whiskeysockets/baileys';

/**
 * The fake network's certificate chain: a test root signs an intermediate, which signs the server's
 * static noise key. Baileys accepts it once the root's public key replaces WA_CERT_DETAILS.PUBLIC_KEY
 * (in this process with `trustTestRoot`, in a host process through BAILEYS_TEST_ROOT_PUBLIC_KEY).
 */
export interface ServerIdentity {
  rootPublicKey: Buffer;
  staticKey: KeyPair;
  certChain: Uint8Array;
}

export function makeServerIdentity(): ServerIdentity {
  const root = Curve.generateKeyPair();
  const intermediate = Curve.generateKeyPair();
  const staticKey = Curve.generateKeyPair();
  const now = Math.floor(Date.now() / 1000);
  const details = (key: Uint8Array, serial: number, issuerSerial: number) =>
    proto.CertChain.NoiseCertificate.Details.encode({
      serial,
      issuerSerial,
      key,
      notBefore: now - 3600,
      notAfter: now + 86_400,
    }).finish();
  const intermediateDetails = details(intermediate.public, 1, WA_CERT_DETAILS.SERIAL);
  const leafDetails = details(staticKey.public, 2, 1);
  const certChain = proto.CertChain.encode({
    intermediate: {
      details: intermediateDetails,
      signature: Curve.sign(root.private, intermediateDetails),
    },
    leaf: { details: leafDetails, signature: Curve.sign(intermediate.private, leafDetails) },
  }).finish();
  return { rootPublicKey: Buffer.from(root.public), staticKey, certChain };
}

/** Makes Baileys in this process trust the test root; returns the undo. */
export function trustTestRoot(rootPublicKey: Buffer): () => void {
  const previous = WA_CERT_DETAILS.PUBLIC_KEY;
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPublicKey);
  return () => {
    WA_CERT_DETAILS.PUBLIC_KEY = previous;
  };
}
