/**
 * Every DynamoDB key the code builds, in one place (docs/data-model.md is the table of them). Stored
 * formats are fixed: existing items must stay readable, so a change here is a data migration.
 *
 * Tenant-owned items start with `T#<tenantId>`; a `…Of` function answers a partition and sort-key
 * prefix to Query (`{ ...contactsOf(t, s), ascending: true }`).
 */

import { INDEX_SHARDS, shardOf } from './shards.ts';

const META = 'META';

const timeKey = (ms: number) => String(ms).padStart(13, '0');
/** 13-digit epoch ms then the id: sorts by time as a string; also the SSE event id of the feed. */
export const orderKey = (timestampMs: number, id: string) => `${timeKey(timestampMs)}#${id}`;
/** Sorts before every order key from `ms` on (a Query `sk >` bound). */
export const orderKeyAt = (ms: number) => timeKey(Math.max(0, Math.floor(ms)));

let lastFeedAt = 0;
/**
 * Now, as the time a message joins its tenant feed: strictly increasing in this process, so the
 * messages one process stores one after another keep that order in the feed and on the stream
 * (messages stored in the same millisecond would otherwise be ordered by their ids).
 */
export function feedClock(): number {
  lastFeedAt = Math.max(Date.now(), lastFeedAt + 1);
  return lastFeedAt;
}

// Tenants and credentials (no tenant in the key: these are how a request finds its tenant).

export const tenantKey = (tenantId: string) => ({ pk: `TENANT#${tenantId}`, sk: META });
export const portalKey = (portalId: string) => ({ pk: `PORTAL#${portalId}`, sk: META });
export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: META });
/** gsi1 of an API key item: the tenant's keys by key id (list, revoke and rotate by id). */
export const apiKeyIndex = (tenantId: string, keyId: string) => ({
  gsi1pk: `T#${tenantId}#APIKEYS`,
  gsi1sk: keyId,
});
export const apiKeysOf = (tenantId: string) => ({ index: 'gsi1' as const, pk: `T#${tenantId}#APIKEYS` });
/**
 * A failed-credentials counter: one fixed window (epoch seconds of its start) of one client address
 * or key prefix (shared/auth/throttle.ts).
 */
export const throttleKey = (kind: 'addr' | 'prefix', id: string, windowStart: number) => ({
  pk: `THROTTLE#${kind}#${id}`,
  sk: String(windowStart),
});

// Items in the tenant's own partition `T#<t>`.

const tenantPk = (tenantId: string) => `T#${tenantId}`;

export const sessionKey = (tenantId: string, sessionId: string) => ({
  pk: tenantPk(tenantId),
  sk: `S#${sessionId}`,
});
export const sessionsOf = (tenantId: string) => ({ pk: tenantPk(tenantId), skBeginsWith: 'S#' });
/** A session id, mobid or mobile number → the session id. */
export const aliasKey = (tenantId: string, alias: string) => ({ pk: tenantPk(tenantId), sk: `SA#${alias}` });
export const commandKey = (tenantId: string, commandId: string) => ({
  pk: tenantPk(tenantId),
  sk: `CMD#${commandId}`,
});
export const templateKey = (tenantId: string, name: string) => ({
  pk: tenantPk(tenantId),
  sk: `TPL#${name}`,
});
export const templatesOf = (tenantId: string) => ({ pk: tenantPk(tenantId), skBeginsWith: 'TPL#' });
/** The tenant's webhook configuration, or a session's override of it. */
export const webhookConfigKey = (tenantId: string, sessionId?: string) => ({
  pk: tenantPk(tenantId),
  sk: sessionId ? `WHCFG#S#${sessionId}` : 'WHCFG#TENANT',
});
/** The tenant's Cloud-format webhook (Meta's envelope), configured beside the native one. */
export const cloudWebhookConfigKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'WHCFG#CLOUD' });
export const webhookOverridesOf = (tenantId: string) => ({
  pk: tenantPk(tenantId),
  skBeginsWith: 'WHCFG#S#',
});
/** The tenant's payment settings (UPI payee for payment links). */
export const paymentSettingsKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'PAYSET' });
export const exportSettingsKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'EXPSET' });
export const deliveryKey = (tenantId: string, deliveryId: string) => ({
  pk: tenantPk(tenantId),
  sk: `DLV#${deliveryId}`,
});
/** The last `session.status` sent for a session. */
export const sessionStatusSentKey = (tenantId: string, sessionId: string) => ({
  pk: tenantPk(tenantId),
  sk: `WHSS#${sessionId}`,
});
/** A session's recent status changes (shared/sessions/history.ts): one item, a bounded list. */
export const sessionHistoryKey = (tenantId: string, sessionId: string) => ({
  pk: tenantPk(tenantId),
  sk: `SH#${sessionId}`,
});
/** A chatbot rule, under the session key (or `*`) it applies to; session keys never contain `#`. */
export const chatbotRuleKey = (tenantId: string, mobid: string, ruleId: string) => ({
  pk: tenantPk(tenantId),
  sk: `CBR#${mobid}#${ruleId}`,
});
/** The rules of one session key, or every rule of the tenant. */
export const chatbotRulesOf = (tenantId: string, mobid?: string) => ({
  pk: tenantPk(tenantId),
  skBeginsWith: mobid === undefined ? 'CBR#' : `CBR#${mobid}#`,
});
/** A rule id → the session key it is stored under (delete by id). */
export const chatbotRuleIdKey = (tenantId: string, ruleId: string) => ({
  pk: tenantPk(tenantId),
  sk: `CBRID#${ruleId}`,
});
/** The chatbot switches (enabled, pure extractor) set for one session key. */
export const chatbotSwitchKey = (tenantId: string, key: string) => ({
  pk: tenantPk(tenantId),
  sk: `CBSW#${key}`,
});
/** A chat the business has taken over from the bot (docs/chatbot.md, "Human takeover"). */
export const takeoverKey = (tenantId: string, sessionId: string, chatId: string) => ({
  pk: `T#${tenantId}#TAKEOVER`,
  sk: `${sessionId}#${chatId}`,
});
export const takeoversOf = (tenantId: string, sessionId: string) => ({
  pk: `T#${tenantId}#TAKEOVER`,
  skBeginsWith: `${sessionId}#`,
});
/** An event of the tenant stream that is not a message (`chat.takeover`), in the tenant feed (gsi1). */
export const feedEventKey = (tenantId: string, eventId: string) => ({
  pk: `T#${tenantId}#FEEDEVT`,
  sk: eventId,
});
/** Every session key's chatbot switches of the tenant. */
export const chatbotSwitchesOf = (tenantId: string) => ({ pk: tenantPk(tenantId), skBeginsWith: 'CBSW#' });

/**
 * Extracted records (docs/extraction.md): one item per session and chat in the tenant's `EXT`
 * partition, indexed on gsi1 by the order key of its latest version (the extraction stream's feed).
 */
export const extractionKey = (tenantId: string, sessionId: string, chatId: string) => ({
  pk: `T#${tenantId}#EXT`,
  sk: `${sessionId}#${chatId}`,
});
export const extractionsOf = (tenantId: string) => ({ pk: `T#${tenantId}#EXT` });
export const extractionFeedPk = (tenantId: string) => `T#${tenantId}#EXTFEED`;

/** The chatbot brain (`CBB#`) or persona prompt (`CBP#`) stored for one session key. */
export const chatbotBrainKey = (tenantId: string, key: string) => ({
  pk: tenantPk(tenantId),
  sk: `CBB#${key}`,
});
export const chatbotPromptKey = (tenantId: string, key: string) => ({
  pk: tenantPk(tenantId),
  sk: `CBP#${key}`,
});
/** The tenant's intents file and its profile (`clinic`, `appliances`, `ecommerce`, `salon`). */
export const chatbotIntentsKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'CBINT' });
export const chatbotProfileKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'CBPROF' });

// A session's partition `T#<t>#S#<sid>`: its messages, contacts, chats, groups and LID mappings.

const sessionPk = (tenantId: string, sessionId: string) => `T#${tenantId}#S#${sessionId}`;

export const messageKey = (tenantId: string, sessionId: string, messageId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `M#${messageId}`,
});
/** The network form of a media message we sent (the driver's upload reference), for retries. */
export const sentMediaKey = (tenantId: string, sessionId: string, messageId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `MW#${messageId}`,
});
/** One voter's current vote on a poll the session sent (`voter`: digits, or `lid:<lid>`). */
export const pollVoteKey = (tenantId: string, sessionId: string, pollId: string, voter: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `PV#${pollId}#${voter}`,
});
/** Every vote on one poll: the session's partition, `begins_with(sk, sk)`. */
export const pollVotesOf = (tenantId: string, sessionId: string, pollId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `PV#${pollId}#`,
});
export const contactKey = (tenantId: string, sessionId: string, phone: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `CT#${phone}`,
});
export const contactsOf = (tenantId: string, sessionId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  skBeginsWith: 'CT#',
});
export const chatKey = (tenantId: string, sessionId: string, chatId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `C#${chatId}`,
});
export const chatsOf = (tenantId: string, sessionId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  skBeginsWith: 'C#',
});
export const groupKey = (tenantId: string, sessionId: string, groupId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `G#${groupId}`,
});
export const groupsOf = (tenantId: string, sessionId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  skBeginsWith: 'G#',
});
/** A LID (user part) → the phone the network revealed for it to this session. */
export const lidKey = (tenantId: string, sessionId: string, lid: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `LID#${lid}`,
});
export const lidsOf = (tenantId: string, sessionId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  skBeginsWith: 'LID#',
});

// Index partitions: gsi1 = tenant feed, deliveries, shard sessions; gsi2 = one chat's messages.
// The tenant feed and the delivery log are written in shards, one per session (store/shards.ts):
// `T#<t>#FEED#<n>`, `T#<t>#DLV#<n>`. Entries written before the shards sit in `T#<t>#FEED` and
// `T#<t>#DLV`, which readers still read (deliveries expire after 30 days, feed events after 7).

/** The tenant feed partition a session's entries are written to. */
export const feedPk = (tenantId: string, sessionId: string) => `T#${tenantId}#FEED#${shardOf(sessionId)}`;
/** Every partition of the tenant feed (of one session's shard only, given one), to read and merge. */
export const feedPks = (tenantId: string, sessionId?: string) => shardedPks(`T#${tenantId}#FEED`, sessionId);
/** The tenant feed's unsharded partition: entries from before the shards, written no more. */
export const legacyFeedPk = (tenantId: string) => `T#${tenantId}#FEED`;
export const chatMessagesPk = (tenantId: string, chatId: string) => `T#${tenantId}#C#${chatId}`;
/** The delivery log partition a session's deliveries are written to. */
export const deliveriesPk = (tenantId: string, sessionId: string) =>
  `T#${tenantId}#DLV#${shardOf(sessionId)}`;
/** Every partition of the delivery log (of one session's shard only, given one). */
export const deliveriesPks = (tenantId: string, sessionId?: string) =>
  shardedPks(`T#${tenantId}#DLV`, sessionId);

/** The unsharded partition (entries from before the shards), then the shards. */
const shardedPks = (base: string, sessionId?: string) =>
  sessionId === undefined
    ? [base, ...Array.from({ length: INDEX_SHARDS }, (_, n) => `${base}#${n}`)]
    : [base, `${base}#${shardOf(sessionId)}`];

/**
 * A message's order key in its tenant feed (gsi1, and the stream's event id): when it joined the
 * feed (`feedAtMs`: stored, or published after its analysis), or its own time for a message stored
 * without that.
 */
export const feedKey = (m: { timestampMs: number; feedAtMs?: number; messageId: string }) =>
  orderKey(m.feedAtMs ?? m.timestampMs, m.messageId);

/** The index attributes of a message: the tenant feed (gsi1) and its chat (gsi2, in message time). */
export const messageIndexKeys = (m: {
  tenantId: string;
  sessionId: string;
  chatId: string;
  timestampMs: number;
  feedAtMs?: number;
  messageId: string;
}) => ({
  gsi1pk: feedPk(m.tenantId, m.sessionId),
  gsi1sk: feedKey(m),
  gsi2pk: chatMessagesPk(m.tenantId, m.chatId),
  gsi2sk: orderKey(m.timestampMs, m.messageId),
});

export const deliveryIndexKeys = (
  tenantId: string,
  sessionId: string,
  createdAtMs: number,
  deliveryId: string,
) => ({
  gsi1pk: deliveriesPk(tenantId, sessionId),
  gsi1sk: orderKey(createdAtMs, deliveryId),
});

// Usage: one partition per tenant and month, one item per session. A month's usage of every session
// is one Query, and a new month is a new partition, so the monthly reset is implicit.

export const usageKey = (tenantId: string, period: string, sessionId: string) => ({
  pk: `T#${tenantId}#USAGE#${period}`,
  sk: `S#${sessionId}`,
});
export const usagesOf = (tenantId: string, period: string) => ({
  pk: `T#${tenantId}#USAGE#${period}`,
  skBeginsWith: 'S#',
});

// AI usage (docs/chatbot.md, "Credits"): one partition per tenant, one counter item per session,
// so the tenant's totals are one Query; a marker per counted event makes a redelivery count once.

export const aiUsageKey = (tenantId: string, sessionId: string) => ({
  pk: `T#${tenantId}#AIUSE`,
  sk: `S#${sessionId}`,
});
export const aiUsagesOf = (tenantId: string) => ({ pk: `T#${tenantId}#AIUSE`, skBeginsWith: 'S#' });
/** One session's counters of one UTC day (shared/usage/daily.ts): `day` is `YYYY-MM-DD`. */
export const usageDayKey = (tenantId: string, sessionId: string, day: string) => ({
  pk: `T#${tenantId}#UDAY`,
  sk: `${sessionId}#${day}`,
});
export const usageDaysOf = (tenantId: string, sessionId: string) => ({
  pk: `T#${tenantId}#UDAY`,
  skBeginsWith: `${sessionId}#`,
});
export const aiUsageEventKey = (tenantId: string, sessionId: string, eventId: string) => ({
  pk: `T#${tenantId}#AIUSE#EV`,
  sk: `${sessionId}#${eventId}`,
});

// Keys without a tenant: the simulator's mobid lookup and the connection host's own bookkeeping.
/**
 * The model chain's key cool-downs (the service's own provider keys, not a tenant's): one partition,
 * one item per pool and key fingerprint (a short hash: the key itself is never stored), read with one
 * Query per model call.
 */
export const AI_KEY_STATE_PK = 'AI#KEYSTATE';
export const aiKeyStateKey = (pool: string, keyHash: string) => ({
  pk: AI_KEY_STATE_PK,
  sk: `${pool}#${keyHash}`,
});

/** mobids are globally unique; tools without a tenant (the simulator) find the session by them. */
export const mobidKey = (mobid: string) => ({ pk: `MOBID#${mobid}`, sk: META });
/** The chatbot handled this inbound message (answered or decided not to): a redelivered job stops here. */
export const chatbotTurnKey = (tenantId: string, sessionId: string, messageId: string) => ({
  pk: `${tenantPk(tenantId)}#CB#${sessionId}`,
  sk: messageId,
});
/**
 * A send's `Idempotency-Key`, in a partition of its own per tenant and key (keys are the caller's
 * choice; one partition each spreads a busy tenant's keys over the table).
 */
export const idempotencyKey = (tenantId: string, key: string) => ({
  pk: `${tenantPk(tenantId)}#IDEM#${key}`,
  sk: META,
});
export const commandDoneKey = (commandId: string) => ({ pk: `CMDDONE#${commandId}`, sk: META });
/**
 * A shard's lease: every shard's in one partition, read whole by a host when the plan's version
 * moved (or now and then). Written only when the shard changes hands, so the partition sees a
 * write per move, not per renewal.
 */
export const leaseKey = (shard: number) => ({ pk: 'LEASES', sk: `SHARD#${String(shard).padStart(4, '0')}` });
export const leasesOf = () => ({ pk: 'LEASES', skBeginsWith: 'SHARD#' });
/** A connection host's heartbeat; all hosts in one partition, read whole with the leases. */
export const hostKey = (hostId: string) => ({ pk: 'HOSTS', sk: `HOST#${hostId}` });
export const hostsOf = () => ({ pk: 'HOSTS', skBeginsWith: 'HOST#' });
/**
 * The plan's version: one small item every host reads each tick, bumped by a host whose change the
 * others must plan on (connection-host/shard-leases.ts). Its own partition, apart from the
 * heartbeats' writes.
 */
export const planVersionKey = () => ({ pk: 'HOSTPLAN', sk: META });
const shardPk = (shard: number) => `SHARD#${shard}`;
/** Where a session is listed for the host holding its shard (gsi1). */
export const shardIndexKeys = (shard: number, tenantId: string, sessionId: string) => ({
  gsi1pk: shardPk(shard),
  gsi1sk: `${tenantId}#${sessionId}`,
});
export const shardSessionsPk = shardPk;

// The auth table: one partition per session.

export const authPk = (sessionId: string) => `AUTH#${sessionId}`;
export const AUTH_CREDS_SK = 'creds';
export const authCredsKey = (sessionId: string) => ({ pk: authPk(sessionId), sk: AUTH_CREDS_SK });
/** The session's epoch: which shard holder may write its auth state and send for it (session-fence.ts). */
export const AUTH_EPOCH_SK = 'epoch';
export const authEpochKey = (sessionId: string) => ({ pk: authPk(sessionId), sk: AUTH_EPOCH_SK });
/** A Signal key (or any other typed value) of the network's auth state. */
export const authValueSk = (type: string, id: string) => `${type}#${id}`;
/** Part `i` of a value too large for one item. */
export const authPartSk = (sk: string, i: number) => `${sk}#part#${i}`;
