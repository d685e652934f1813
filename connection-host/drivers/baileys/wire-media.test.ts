import { EventEmitter } from 'node:events';
import type { WAMessage, WASocket } from '@whiskeysockets/baileys';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LidCache } from '#shared/contacts/lid-cache';
import { logger } from '#shared/log/logger';
import type { DriverEvents } from '../driver.ts';
import { wireEvents } from './wire.ts';

// Baileys' download as the CDN would answer it: one stalls for good (ignoring its abort signal, as
// rc14's does), one has expired (404, a Boom) until the phone uploads it again.
vi.mock('@whiskeysockets/baileys', async (actual) => ({
  ...(await actual<typeof import('@whiskeysockets/baileys')>()),
  downloadMediaMessage: async (m: WAMessage) => {
    const path = m.message?.imageMessage?.directPath;
    if (path === '/stalled') return new Promise(() => {});
    if (path === '/expired')
      throw Object.assign(new Error('Failed to fetch stream'), { output: { statusCode: 404 } });
    return Buffer.from(`bytes of ${path}`);
  },
}));

const image = (id: string, directPath: string): WAMessage => ({
  key: { remoteJid: '919876543210@s.whatsapp.net', id },
  messageTimestamp: 1_700_000_000,
  message: {
    imageMessage: { mimetype: 'image/jpeg', directPath, url: `https://mmg.example.net${directPath}` },
  },
});
const text = (id: string): WAMessage => ({
  key: { remoteJid: '919876543210@s.whatsapp.net', id },
  messageTimestamp: 1_700_000_000,
  message: { conversation: id },
});

function wired() {
  const ev = new EventEmitter();
  const inbound: Array<{ id: string; mediaMissing?: string; bytes?: string }> = [];
  const reuploads: string[] = [];
  const events = {
    onInbound: (m, media) =>
      inbound.push({
        id: m.id,
        ...(m.mediaMissing ? { mediaMissing: m.mediaMissing } : {}),
        ...(media ? { bytes: Buffer.from(media.bytes).toString() } : {}),
      }),
    onOwnMessage: () => {},
    onReceipt: () => {},
    onSendFailed: () => {},
    onLidMapping: () => {},
  } as Partial<DriverEvents> as DriverEvents;
  const sock = {
    ev,
    signalRepository: { lidMapping: { getPNsForLIDs: async () => [] } },
    // The phone uploads the expired media again: the message comes back with a fresh path.
    updateMediaMessage: async (m: WAMessage) => {
      reuploads.push(m.key.id ?? '');
      return { ...m, message: { imageMessage: { ...m.message?.imageMessage, directPath: '/fresh' } } };
    },
  } as unknown as WASocket;
  const wiring = wireEvents({
    sock,
    events,
    log: logger.child({}, { level: 'silent' }),
    maxMediaBytes: 1_000_000,
    mediaTimeoutMs: 60_000,
    groups: new Map(),
    contacts: new Set(),
    lids: new LidCache(),
  });
  return { ev, inbound, reuploads, wiring };
}

describe('inbound media within bounds', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a stalled download holds later messages for at most the bound; it arrives flagged, in order', async () => {
    const { ev, inbound } = wired();
    ev.emit('messages.upsert', { type: 'notify', messages: [image('STALLED', '/stalled')] });
    ev.emit('messages.upsert', { type: 'notify', messages: [text('LATER1'), text('LATER2')] });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(inbound).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(inbound).toEqual([
      { id: 'STALLED', mediaMissing: 'the media did not arrive within 60 s' },
      { id: 'LATER1' },
      { id: 'LATER2' },
    ]);
  });

  it('expired media (404) is asked of the phone again and arrives with its bytes', async () => {
    const { ev, inbound, reuploads, wiring } = wired();
    ev.emit('messages.upsert', { type: 'notify', messages: [image('OLD', '/expired'), text('AFTER')] });
    await wiring.drain();
    expect(reuploads).toEqual(['OLD']);
    expect(inbound).toEqual([{ id: 'OLD', bytes: 'bytes of /fresh' }, { id: 'AFTER' }]);
  });
});
