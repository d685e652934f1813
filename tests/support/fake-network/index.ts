export type { ServerIdentity } from './certs.ts';
export {
  type Disconnect,
  FakeNetwork,
  type FakeNetworkOptions,
  newMessageId,
  type Registration,
  startFakeNetwork,
} from './network.ts';
export type { Companion, FakeUser, ReceivedMessage, SendOptions } from './users.ts';
