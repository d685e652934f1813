import type { FakeNetwork } from './network.ts';

/**
 * The two accounts nearly every Baileys test starts with, added in one place: the shop (`me`, the
 * account a session links to) and its contact Asha.
 */
export function addShopAndAsha(net: FakeNetwork, phones: { me: string; asha: string }) {
  const me = net.addUser({ phone: phones.me, name: 'Shop' });
  return { me, asha: net.addUser({ phone: phones.asha, name: 'Asha' }) };
}
