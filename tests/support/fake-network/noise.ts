import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  hkdf,
  type KeyPair,
  NOISE_MODE,
  proto,
  sha256,
} from '@whiskeysockets/baileys';

const iv = (counter: number) => {
  const out = Buffer.alloc(12);
  out.writeUInt32BE(counter, 8);
  return out;
};

/** One direction of the transport phase: AES-GCM with a per-direction frame counter as IV. */
class Cipher {
  private counter = 0;
  constructor(private readonly key: Uint8Array) {}
  encrypt(plain: Uint8Array) {
    return aesEncryptGCM(plain, this.key, iv(this.counter++), Buffer.alloc(0));
  }
  decrypt(sealed: Uint8Array) {
    return aesDecryptGCM(sealed, this.key, iv(this.counter++), Buffer.alloc(0));
  }
}

export interface Transport {
  encrypt(plain: Uint8Array): Buffer;
  decrypt(sealed: Uint8Array): Buffer;
}

/**
 * The server half of the Noise XX handshake Baileys' `makeNoiseHandler` speaks (the client half
 * lives there): same symmetric state, mirrored. `hello` answers the client's ephemeral key with
 * ours, our static key and the certificate chain; `finish` reads the client's static (noise) key
 * and its login or registration payload, then both sides switch to transport keys.
 */
export class NoiseServer {
  private hash: Buffer;
  private salt: Buffer;
  private key: Buffer;
  private counter = 0;
  private readonly ephemeral = Curve.generateKeyPair();
  private clientEphemeral: Uint8Array | undefined;

  constructor(
    header: Uint8Array,
    private readonly staticKey: KeyPair,
    private readonly certChain: Uint8Array,
  ) {
    const mode = Buffer.from(NOISE_MODE);
    this.hash = mode.byteLength === 32 ? mode : sha256(mode);
    this.salt = this.hash;
    this.key = this.hash;
    this.authenticate(header);
  }

  private authenticate(data: Uint8Array) {
    this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  private mixIntoKey(data: Uint8Array) {
    const out = Buffer.from(hkdf(Buffer.from(data), 64, { salt: this.salt, info: '' }));
    this.salt = out.subarray(0, 32);
    this.key = out.subarray(32);
    this.counter = 0;
  }

  private encrypt(plain: Uint8Array) {
    const sealed = aesEncryptGCM(plain, this.key, iv(this.counter++), this.hash);
    this.authenticate(sealed);
    return sealed;
  }

  private decrypt(sealed: Uint8Array) {
    const plain = aesDecryptGCM(sealed, this.key, iv(this.counter++), this.hash);
    this.authenticate(sealed);
    return plain;
  }

  /** The client's hello (its ephemeral key) → our serialized server hello. */
  hello(clientHello: Uint8Array): Uint8Array {
    const msg = proto.HandshakeMessage.decode(clientHello);
    const clientEphemeral = msg.clientHello?.ephemeral;
    if (!clientEphemeral?.length) throw new Error('handshake: no client ephemeral key');
    this.clientEphemeral = clientEphemeral;
    this.authenticate(clientEphemeral);
    this.authenticate(this.ephemeral.public);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientEphemeral));
    const staticSealed = this.encrypt(this.staticKey.public);
    this.mixIntoKey(Curve.sharedKey(this.staticKey.private, clientEphemeral));
    const payload = this.encrypt(this.certChain);
    return proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.ephemeral.public, static: staticSealed, payload },
    }).finish();
  }

  /** The client's finish → its static noise key, its payload and the transport ciphers. */
  finish(clientFinish: Uint8Array): {
    clientStatic: Buffer;
    payload: proto.ClientPayload;
    transport: Transport;
  } {
    if (!this.clientEphemeral) throw new Error('handshake: finish before hello');
    const finish = proto.HandshakeMessage.decode(clientFinish).clientFinish;
    if (!finish?.static || !finish.payload) throw new Error('handshake: incomplete client finish');
    const clientStatic = this.decrypt(finish.static);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientStatic));
    const payload = proto.ClientPayload.decode(this.decrypt(finish.payload));
    const keys = Buffer.from(hkdf(new Uint8Array(0), 64, { salt: this.salt, info: '' }));
    // The client writes with the first half and reads with the second.
    const fromClient = new Cipher(keys.subarray(0, 32));
    const toClient = new Cipher(keys.subarray(32));
    return {
      clientStatic,
      payload,
      transport: {
        encrypt: (plain) => toClient.encrypt(plain),
        decrypt: (sealed) => fromClient.decrypt(sealed),
      },
    };
  }
}
