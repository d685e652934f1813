import { describe, expect, it, vi } from 'vitest';
import { phoneOfJid } from '#shared/phone/jid';
import { checkNumbers } from './check.ts';

/** A socket whose network knows `accounts`: number asked → the account's JID. */
function sockWith(accounts: Record<string, string>) {
  return {
    onWhatsApp: vi.fn(async (...jids: string[]) =>
      jids.flatMap((j) => {
        const jid = accounts[phoneOfJid(j) ?? ''];
        return jid ? [{ jid, exists: true }] : [];
      }),
    ),
  };
}

describe('checkNumbers', () => {
  it('one query; each number answered in order, absent ones do not exist', async () => {
    const sock = sockWith({ '919876543210': '919876543210@s.whatsapp.net' });
    expect(await checkNumbers(sock, ['14155550100', '919876543210'])).toEqual([
      { number: '14155550100', exists: false, jid: null },
      { number: '919876543210', exists: true, jid: '919876543210@s.whatsapp.net' },
    ]);
    expect(sock.onWhatsApp).toHaveBeenCalledTimes(1);
    expect(sock.onWhatsApp).toHaveBeenCalledWith('14155550100@s.whatsapp.net', '919876543210@s.whatsapp.net');
  });

  it('an account under a rewritten number is tied to its number by asking again one at a time', async () => {
    // The network knows this Brazilian mobile under its older 8-digit form.
    const sock = sockWith({ '5511987654321': '551187654321@s.whatsapp.net' });
    expect(await checkNumbers(sock, ['5511987654321', '14155550100'])).toEqual([
      { number: '5511987654321', exists: true, jid: '551187654321@s.whatsapp.net' },
      { number: '14155550100', exists: false, jid: null },
    ]);
    expect(sock.onWhatsApp).toHaveBeenCalledTimes(3);
  });
});
