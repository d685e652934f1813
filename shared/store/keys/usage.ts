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
