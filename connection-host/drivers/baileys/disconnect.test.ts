import { describe, expect, it } from 'vitest';
import { toLinkEnd } from './disconnect.ts';

describe('disconnect reasons', () => {
  // What Baileys hands to `connection.update` (a Boom): stream errors are "Stream Errored (…)", a
  // `<failure>` at login is "Connection Failure".
  const boom = (statusCode: number, message = 'Stream Errored (x)', data?: unknown) =>
    Object.assign(new Error(message), { output: { statusCode }, data });

  // The policy table of docs/sessions.md, code by code.
  it.each([
    [515, 'Stream Errored (restart required)', 'restart'],
    [500, 'Stream Errored (ack)', 'transient'],
    [500, 'Stream Errored (xml-not-well-formed)', 'transient'],
    [503, 'Stream Errored (unknown)', 'transient'],
    [408, 'Connection was lost', 'transient'],
    [428, 'Connection Terminated', 'transient'],
    [499, 'Stream Errored (unknown)', 'transient'],
    [440, 'Stream Errored (conflict)', 'replaced'],
    [405, 'Connection Failure', 'refused'],
    [500, 'Connection Failure', 'refused'],
    [402, 'Connection Failure', 'refused'],
    [411, 'Multi-device beta not joined', 'refused'],
    [408, 'QR refs attempts ended', 'refused'],
    [401, 'Connection Failure', 'logged_out'],
    [401, 'Stream Errored (conflict)', 'logged_out'],
    [403, 'Connection Failure', 'fatal'],
  ])('%i %s → %s', (status, message, kind) => {
    const end = toLinkEnd(boom(status, message));
    expect(end.kind).toBe(kind);
    expect(end.code).toBe(status);
    if (end.kind !== 'restart') expect(end.reason).toContain(String(status));
  });

  it('says what a 405 usually means and how to fix it', () => {
    const end = toLinkEnd(boom(405, 'Connection Failure', { reason: '405' }));
    expect(end).toMatchObject({ kind: 'refused', reason: expect.stringContaining('BAILEYS_VERSION') });
  });

  it('treats socket errors as transient whatever the status', () => {
    const err = Object.assign(new Error('getaddrinfo ENOTFOUND web.whatsapp.com'), { code: 'ENOTFOUND' });
    const end = toLinkEnd(boom(500, 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)', err));
    expect(end).toEqual({ kind: 'transient', reason: expect.stringContaining('ENOTFOUND') });
  });

  it('treats a socket that failed under Baileys as a network error, not a status from the network', () => {
    const end = toLinkEnd(boom(500, 'WebSocket Error (undefined)', 1006));
    expect(end).toEqual({
      kind: 'transient',
      reason: expect.stringContaining('network error (socket closed)'),
    });
  });

  it('retries an error without any status', () => {
    expect(toLinkEnd(new Error('something odd'))).toEqual({
      kind: 'transient',
      reason: expect.stringContaining('something odd'),
    });
    expect(toLinkEnd(undefined).kind).toBe('transient');
  });
});
