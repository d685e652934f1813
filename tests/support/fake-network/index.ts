export { addShopAndAsha } from './cast.ts';
export type { ServerIdentity } from './certs.ts';
export type { Registration } from './linking.ts';
export { FakeNetwork, type FakeNetworkOptions, startFakeNetwork } from './network.ts';
export { type Disconnect, newMessageId } from './stanzas.ts';
export type { Companion, FakeUser, ReceivedMessage, SendOptions } from './users.ts';
