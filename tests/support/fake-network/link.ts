import { type BinaryNode, decodeBinaryNode, encodeBinaryNode, type proto } from '@whiskeysockets/baileys';
import type { WebSocket } from 'ws';
import type { ServerIdentity } from './certs.ts';
import { NoiseServer, type Transport } from './noise.ts';

export interface LinkHandlers {
  /** The handshake finished: the client's noise key and its login or registration payload. */
  onHello(link: Link, payload: proto.ClientPayload, noiseKey: Buffer): void;
  onNode(link: Link, node: BinaryNode): void;
  onClose(link: Link): void;
}

/**
 * One client socket: strips the intro header, runs the Noise handshake, then decrypts frames into
 * binary nodes (in order) and encrypts the nodes we send. Knows nothing of what the nodes mean.
 */
export class Link {
  private buffered = Buffer.alloc(0);
  private introSeen = false;
  private noise: NoiseServer | undefined;
  private transport: Transport | undefined;
  private header: Buffer | undefined;
  private chain: Promise<void> = Promise.resolve();
  closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly identity: ServerIdentity,
    private readonly handlers: LinkHandlers,
  ) {
    ws.on('message', (data: Buffer) => this.receive(data));
    ws.on('close', () => {
      this.closed = true;
      handlers.onClose(this);
    });
    ws.on('error', () => ws.terminate());
  }

  send(node: BinaryNode): void {
    if (!this.transport || this.closed) return;
    this.write(this.transport.encrypt(encodeBinaryNode(node)));
  }

  /** Closes the socket (the client sees "Connection Terminated", 428). */
  close(): void {
    if (!this.closed) this.ws.close();
  }

  private write(payload: Uint8Array) {
    const frame = Buffer.alloc(3 + payload.byteLength);
    frame.writeUIntBE(payload.byteLength, 0, 3);
    frame.set(payload, 3);
    this.ws.send(frame);
  }

  private receive(data: Buffer) {
    this.buffered = Buffer.concat([this.buffered, data]);
    if (!this.introSeen) {
      // "ED" + routing info precedes the WA header when the client has routing info.
      let skip = 0;
      if (this.buffered.subarray(0, 2).toString() === 'ED') {
        if (this.buffered.length < 7) return;
        skip = 7 + this.buffered.readUIntBE(4, 3);
      }
      if (this.buffered.length < skip + 4) return;
      this.header = this.buffered.subarray(skip, skip + 4);
      this.buffered = this.buffered.subarray(skip + 4);
      this.introSeen = true;
    }
    while (this.buffered.length >= 3) {
      const size = this.buffered.readUIntBE(0, 3);
      if (this.buffered.length < size + 3) return;
      const frame = this.buffered.subarray(3, size + 3);
      this.buffered = this.buffered.subarray(size + 3);
      this.chain = this.chain.then(() => this.frame(frame)).catch(() => this.ws.terminate());
    }
  }

  private async frame(frame: Buffer) {
    if (this.closed) return;
    if (this.transport) {
      this.handlers.onNode(this, await decodeBinaryNode(this.transport.decrypt(frame)));
      return;
    }
    if (!this.noise) {
      this.noise = new NoiseServer(
        this.header ?? Buffer.alloc(0),
        this.identity.staticKey,
        this.identity.certChain,
      );
      this.write(this.noise.hello(frame));
      return;
    }
    const { clientStatic, payload, transport } = this.noise.finish(frame);
    this.transport = transport;
    this.handlers.onHello(this, payload, clientStatic);
  }
}
