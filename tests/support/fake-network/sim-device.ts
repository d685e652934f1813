import {
  Curve,
  encodeWAMessage,
  generateSignalPubKey,
  initAuthCreds,
  type KeyPair,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStoreWithTransaction,
  unpadRandomMax16,
} from '@whiskeysockets/baileys';
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js';
import { logger } from '#shared/log/logger';

const quiet = logger.child({ component: 'fake-network' }, { level: 'silent' });

/** What a device publishes so others can open a Signal session with it (32-byte keys, no prefix). */
export interface PreKeyBundle {
  registrationId: number;
  identity: Uint8Array;
  signedPreKey: { keyId: number; public: Uint8Array; signature: Uint8Array };
  /** One-time pre-key; absent when the device has none left (the signed pre-key still works). */
  preKey?: { keyId: number; public: Uint8Array };
}

/** An in-memory Signal key store with the transaction shape Baileys' repository expects. */
function memoryKeys(): SignalKeyStoreWithTransaction {
  const data = new Map<string, unknown>();
  return {
    get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const v = data.get(`${type}:${id}`);
        if (v !== undefined) out[id] = v as SignalDataTypeMap[T];
      }
      return out;
    },
    set: async (set: SignalDataSet) => {
      for (const [type, values] of Object.entries(set)) {
        for (const [id, v] of Object.entries(values ?? {})) {
          if (v === null || v === undefined) data.delete(`${type}:${id}`);
          else data.set(`${type}:${id}`, v);
        }
      }
    },
    isInTransaction: () => false,
    transaction: (exec) => exec(),
  };
}

/**
 * A device the network itself plays (a contact's phone, our account's own phone) with real Signal
 * encryption: Baileys' own repository over an in-memory key store.
 */
export class SimDevice {
  private readonly creds = initAuthCreds();
  private readonly keys = memoryKeys();
  private readonly repo = makeLibSignalRepository({ creds: this.creds, keys: this.keys }, quiet);
  private readonly oneTime: Array<{ keyId: number; pair: KeyPair }> = [];

  get registrationId(): number {
    return this.creds.registrationId;
  }

  constructor(preKeys = 20) {
    const preKeyPairs: Record<string, KeyPair> = {};
    for (let keyId = 1; keyId <= preKeys; keyId++) {
      const pair = Curve.generateKeyPair();
      this.oneTime.push({ keyId, pair });
      preKeyPairs[keyId] = pair;
    }
    void this.keys.set({ 'pre-key': preKeyPairs });
  }

  /** Hands out a bundle, using up one one-time pre-key as the real server does. */
  bundle(): PreKeyBundle {
    const { signedPreKey, signedIdentityKey, registrationId } = this.creds;
    const one = this.oneTime.shift();
    return {
      registrationId,
      identity: signedIdentityKey.public,
      signedPreKey: {
        keyId: signedPreKey.keyId,
        public: signedPreKey.keyPair.public,
        signature: signedPreKey.signature,
      },
      ...(one ? { preKey: { keyId: one.keyId, public: one.pair.public } } : {}),
    };
  }

  /** The identity key pair; a primary device's signs the devices it links (the account key). */
  get identity(): KeyPair {
    return this.creds.signedIdentityKey;
  }

  async hasSession(jid: string): Promise<boolean> {
    return (await this.repo.validateSession(jid)).exists;
  }

  async startSession(jid: string, bundle: PreKeyBundle): Promise<void> {
    await this.repo.injectE2ESession({
      jid,
      session: {
        registrationId: bundle.registrationId,
        identityKey: generateSignalPubKey(bundle.identity),
        signedPreKey: {
          keyId: bundle.signedPreKey.keyId,
          publicKey: generateSignalPubKey(bundle.signedPreKey.public),
          signature: bundle.signedPreKey.signature,
        },
        ...(bundle.preKey
          ? { preKey: { keyId: bundle.preKey.keyId, publicKey: generateSignalPubKey(bundle.preKey.public) } }
          : {}),
      },
    });
  }

  encrypt(jid: string, message: proto.IMessage) {
    return this.repo.encryptMessage({ jid, data: encodeWAMessage(message) });
  }

  async decrypt(jid: string, type: 'pkmsg' | 'msg', ciphertext: Uint8Array): Promise<proto.Message> {
    const padded = await this.repo.decryptMessage({ jid, type, ciphertext });
    return proto.Message.decode(unpadRandomMax16(padded));
  }
}
