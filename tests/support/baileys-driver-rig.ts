import { expect } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import type { CallUpdate } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import type { InboundMessage, OwnMessage, PollVote } from '#shared/messages/content';
import type { Restriction } from '#shared/sessions/restriction';
import { baileysDriver } from '../../connection-host/drivers/baileys/driver.ts';
import type { BaileysDriverOptions } from '../../connection-host/drivers/baileys/options.ts';
import type {
  DriverEvents,
  DriverLink,
  LinkEnd,
  LinkRequest,
  MessageChange,
  NetworkDriver,
} from '../../connection-host/drivers/driver.ts';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';
import type { Companion, FakeNetwork, FakeUser } from './fake-network/index.ts';
import { addShopAndAsha, startFakeNetwork } from './fake-network/index.ts';

/**
 * The real Baileys driver against the fake network, as the driver's integration tests
 * (tests/integration/baileys-*.test.ts) set it up: one owner for the network's start and stop on a
 * resource prefix of the file's own, the recorder of what the driver reports, and the link-then-login
 * every one of them begins with; each test file states only its situation.
 */

const quiet = logger.child({}, { level: 'silent' });
/** Polls with room for a loaded machine (expect.poll's default gives up after 1 s). */
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 20_000 });

export interface DriverNetwork {
  net: FakeNetwork;
  /** A Baileys driver pointed at this network (5 s connect timeout), with the file's own options. */
  driver(opts?: Omit<BaileysDriverOptions, 'waWebSocketUrl'>): NetworkDriver;
  /** Untrusts the network's root and closes it. */
  close(): Promise<void>;
}

/** `startDriverNetwork` with the shop's account (`me`) and its contact Asha on the network. */
export async function startShopNetwork(prefix: string, phones: { me: string; asha: string }) {
  const rig = await startDriverNetwork(prefix);
  return { rig, net: rig.net, ...addShopAndAsha(rig.net, phones) };
}

/**
 * Bootstraps the file's tables and queues on `RESOURCE_PREFIX` = `prefix` + a clock suffix, starts the
 * fake network and trusts its certificate root in this process (the driver reads it there).
 */
export async function startDriverNetwork(prefix: string): Promise<DriverNetwork> {
  process.env.RESOURCE_PREFIX = `${prefix}${Date.now() % 1_000_000}`;
  resetEnvCache();
  await bootstrapResources(process.env.RESOURCE_PREFIX, 1);
  const net = await startFakeNetwork();
  const untrust = net.trustInThisProcess();
  return {
    net,
    driver: (opts = {}) =>
      baileysDriver({ logger: quiet, connectTimeoutMs: 5000, ...opts, waWebSocketUrl: net.url }),
    async close() {
      untrust();
      await net.close();
    },
  };
}

/** What a link reported, in order: every event the driver's tests look at. */
export interface LinkRecord {
  qrs: string[];
  codes: string[];
  opens: string[];
  closes: LinkEnd[];
  inbound: Array<Omit<InboundMessage, 'mediaKey'>>;
  own: OwnMessage[];
  receipts: Array<[string, string]>;
  failures: Array<[string, string]>;
  votes: PollVote[];
  changes: MessageChange[];
  calls: CallUpdate[];
  restrictions: Array<Restriction | null>;
  history: Array<Omit<InboundMessage, 'mediaKey'>>;
  syncs: string[];
}

/** A fresh record and the driver events that fill it. */
export function recorder(): LinkRecord & { events: DriverEvents } {
  const r: LinkRecord = {
    qrs: [],
    codes: [],
    opens: [],
    closes: [],
    inbound: [],
    own: [],
    receipts: [],
    failures: [],
    votes: [],
    changes: [],
    calls: [],
    restrictions: [],
    history: [],
    syncs: [],
  };
  const nothing = () => {};
  const events: DriverEvents = {
    onQr: (qr) => r.qrs.push(qr),
    onPairingCode: (code) => r.codes.push(code),
    onOpen: ({ mobile }) => r.opens.push(mobile),
    onClose: (end) => r.closes.push(end),
    onInbound: (m) => r.inbound.push(m),
    onOwnMessage: (m) => r.own.push(m),
    onReceipt: (id, status) => r.receipts.push([id, status]),
    onSendFailed: (id, reason) => r.failures.push([id, reason]),
    onContacts: nothing,
    onGroup: nothing,
    onLidMapping: nothing,
    onMessageChange: (c) => r.changes.push(c),
    onPollVote: (v) => r.votes.push(v),
    onActivity: nothing,
    onRestriction: (x) => r.restrictions.push(x),
    onCall: (c) => r.calls.push(c),
    onHistory: (messages, sync) => {
      r.history.push(...messages);
      r.syncs.push(sync.syncType);
    },
  };
  return { ...r, events };
}

/**
 * Links `user`'s phone to a fresh session by QR (the network then restarts the link, as after every
 * pairing), closes that link and logs in again with the stored creds: the opened link, what it
 * reports, and the companion device the scan made.
 */
export async function linkThenLogin(
  driver: NetworkDriver,
  request: LinkRequest,
  user: FakeUser,
): Promise<{ link: DriverLink; opened: ReturnType<typeof recorder>; device: Companion }> {
  const linking = recorder();
  const first = await driver.connect(request, linking.events);
  await poll(() => linking.qrs.length).toBe(1);
  const device = await user.scanQr(linking.qrs[0] ?? '');
  await poll(() => linking.closes.map((c) => c.kind)).toEqual(['restart']); // the 515 after pairing
  await first.close();
  const opened = recorder();
  const link = await driver.connect(request, opened.events);
  await poll(() => opened.opens).toEqual([user.number]);
  return { link, opened, device };
}
