import { META } from './access.ts';

/*
 * Items of one tenant: its own partition `T#<t>` (sessions, commands, templates, webhook and chatbot
 * settings, deliveries) and the partitions of their own it owns (takeovers, extractions, the
 * chatbot's turns, idempotency keys).
 */

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
