import { describe, expect, it } from 'vitest';
import { toLinkEnd } from './disconnect.ts';

describe('disconnect reasons', () => {
  const boom = (statusCode: number, message = 'x', data?: unknown) =>
    Object.assign(new Error(message), { output: { statusCode }, data });
  it.each([
    [515, 'restart'],
    [408, 'transient'],
    [428, 'transient'],
    [503, 'transient'],
    [401, 'logged_out'],
    [440, 'replaced'],
    [403, 'fatal'],
    [411, 'fatal'],
    [500, 'fatal'],
    [499, 'fatal'],
  ])('status %i → %s', (status, kind) => {
    expect(toLinkEnd(boom(status)).kind).toBe(kind);
  });
  it('treats socket errors as transient whatever the status', () => {
    const err = Object.assign(new Error('getaddrinfo ENOTFOUND web.whatsapp.com'), { code: 'ENOTFOUND' });
    const end = toLinkEnd(boom(500, 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)', err));
    expect(end).toEqual({ kind: 'transient', reason: expect.stringContaining('ENOTFOUND') });
  });
});
