import { describe, expect, it } from 'vitest';
import * as k from './keys.ts';
import { INDEX_SHARDS, shardOf } from './shards.ts';

// The stored formats, written out: existing items must stay readable, so these strings never change.
describe('DynamoDB keys', () => {
  it('tenant, portal and API key items', () => {
    expect(k.tenantKey('tnt_1')).toEqual({ pk: 'TENANT#tnt_1', sk: 'META' });
    expect(k.portalKey('prt_1')).toEqual({ pk: 'PORTAL#prt_1', sk: 'META' });
    expect(k.apiKeyKey('ab12')).toEqual({ pk: 'APIKEY#ab12', sk: 'META' });
    expect(k.apiKeyIndex('t', 'key_1')).toEqual({ gsi1pk: 'T#t#APIKEYS', gsi1sk: 'key_1' });
    expect(k.apiKeysOf('t')).toEqual({ index: 'gsi1', pk: 'T#t#APIKEYS' });
    expect(k.throttleKey('addr', '10.0.0.1', 60)).toEqual({ pk: 'THROTTLE#addr#10.0.0.1', sk: '60' });
  });

  it("items in the tenant's partition", () => {
    expect(k.sessionKey('t', 'qr_1')).toEqual({ pk: 'T#t', sk: 'S#qr_1' });
    expect(k.sessionsOf('t')).toEqual({ pk: 'T#t', skBeginsWith: 'S#' });
    expect(k.aliasKey('t', '919876543210')).toEqual({ pk: 'T#t', sk: 'SA#919876543210' });
    expect(k.commandKey('t', 'c1')).toEqual({ pk: 'T#t', sk: 'CMD#c1' });
    expect(k.templateKey('t', 'welcome')).toEqual({ pk: 'T#t', sk: 'TPL#welcome' });
    expect(k.templatesOf('t')).toEqual({ pk: 'T#t', skBeginsWith: 'TPL#' });
    expect(k.webhookConfigKey('t')).toEqual({ pk: 'T#t', sk: 'WHCFG#TENANT' });
    expect(k.webhookConfigKey('t', 's1')).toEqual({ pk: 'T#t', sk: 'WHCFG#S#s1' });
    expect(k.webhookOverridesOf('t')).toEqual({ pk: 'T#t', skBeginsWith: 'WHCFG#S#' });
    expect(k.deliveryKey('t', 'd1')).toEqual({ pk: 'T#t', sk: 'DLV#d1' });
    expect(k.sessionStatusSentKey('t', 's1')).toEqual({ pk: 'T#t', sk: 'WHSS#s1' });
    expect(k.sessionHistoryKey('t', 's1')).toEqual({ pk: 'T#t', sk: 'SH#s1' });
    expect(k.usageDayKey('t', 's1', '2026-11-26')).toEqual({ pk: 'T#t#UDAY', sk: 's1#2026-11-26' });
    expect(k.usageDaysOf('t', 's1')).toEqual({ pk: 'T#t#UDAY', skBeginsWith: 's1#' });
    expect(k.idempotencyKey('t', 'order-42')).toEqual({ pk: 'T#t#IDEM#order-42', sk: 'META' });
  });

  it("items in a session's partition", () => {
    const pk = 'T#t#S#s1';
    expect(k.messageKey('t', 's1', 'M1')).toEqual({ pk, sk: 'M#M1' });
    expect(k.contactKey('t', 's1', '919876543210')).toEqual({ pk, sk: 'CT#919876543210' });
    expect(k.contactsOf('t', 's1')).toEqual({ pk, skBeginsWith: 'CT#' });
    expect(k.chatKey('t', 's1', '1203@g.us')).toEqual({ pk, sk: 'C#1203@g.us' });
    expect(k.chatsOf('t', 's1')).toEqual({ pk, skBeginsWith: 'C#' });
    expect(k.groupKey('t', 's1', '1203@g.us')).toEqual({ pk, sk: 'G#1203@g.us' });
    expect(k.groupsOf('t', 's1')).toEqual({ pk, skBeginsWith: 'G#' });
    expect(k.lidKey('t', 's1', '123456789012345')).toEqual({ pk, sk: 'LID#123456789012345' });
    expect(k.lidsOf('t', 's1')).toEqual({ pk, skBeginsWith: 'LID#' });
  });

  it('reads back the time of an order key and knows one a client hands back', () => {
    // The streams' look-back windows and Last-Event-ID check read keys the store wrote: one format.
    expect(k.orderKeyTime(k.orderKey(1_700_000_000_123, 'M1'))).toBe(1_700_000_000_123);
    expect(k.orderKeyTime(k.orderKey(42, 'M1'))).toBe(42);
    expect(k.orderKeyTime(k.orderKeyAt(42))).toBe(42);
    expect(k.ORDER_KEY.test(k.orderKey(42, 'rst_ab#v1'))).toBe(true);
    expect(k.ORDER_KEY.test('42#M1')).toBe(false);
    expect(k.ORDER_KEY.test(`${k.orderKeyAt(42)}#a b`)).toBe(false);
  });

  it('index keys order by time as strings', () => {
    expect(k.orderKey(1_700_000_000_000, 'M1')).toBe('1700000000000#M1');
    expect(k.orderKey(42, 'M1')).toBe('0000000000042#M1');
    expect(k.orderKeyAt(-5)).toBe('0000000000000');
    expect(k.orderKeyAt(42.9) < k.orderKey(42, 'A')).toBe(true);
    expect(
      k.messageIndexKeys({
        tenantId: 't',
        sessionId: 's1',
        chatId: '919876543210',
        timestampMs: 42,
        messageId: 'M1',
      }),
    ).toEqual({
      gsi1pk: `T#t#FEED#${shardOf('s1')}`,
      gsi1sk: '0000000000042#M1',
      gsi2pk: 'T#t#C#919876543210',
      gsi2sk: '0000000000042#M1',
    });
    // The feed is in the order messages joined it; the chat in message time.
    expect(
      k.messageIndexKeys({
        tenantId: 't',
        sessionId: 's1',
        chatId: 'c',
        timestampMs: 42,
        feedAtMs: 99,
        messageId: 'M1',
      }),
    ).toMatchObject({ gsi1sk: '0000000000099#M1', gsi2sk: '0000000000042#M1' });
    expect(k.deliveryIndexKeys('t', 's1', 42, 'd1')).toEqual({
      gsi1pk: `T#t#DLV#${shardOf('s1')}`,
      gsi1sk: '0000000000042#d1',
    });
    // Readers merge the unsharded partition (entries from before the shards) and every shard, or
    // the one shard of a session.
    expect(k.feedPks('t')).toHaveLength(1 + INDEX_SHARDS);
    expect(k.feedPks('t')[0]).toBe('T#t#FEED');
    expect(k.feedPks('t', 's1')).toEqual(['T#t#FEED', `T#t#FEED#${shardOf('s1')}`]);
    expect(k.deliveriesPks('t', 's1')).toEqual(['T#t#DLV', `T#t#DLV#${shardOf('s1')}`]);
    expect(k.shardIndexKeys(3, 't', 's1')).toEqual({ gsi1pk: 'SHARD#3', gsi1sk: 't#s1' });
    expect(k.shardSessionsPk(3)).toBe('SHARD#3');
  });

  it('usage: one partition per tenant and month', () => {
    expect(k.usageKey('t', '2026-11', 's1')).toEqual({ pk: 'T#t#USAGE#2026-11', sk: 'S#s1' });
    expect(k.usagesOf('t', '2026-11')).toEqual({ pk: 'T#t#USAGE#2026-11', skBeginsWith: 'S#' });
  });

  it('keys without a tenant', () => {
    expect(k.mobidKey('900000000000001')).toEqual({ pk: 'MOBID#900000000000001', sk: 'META' });
    expect(k.commandDoneKey('c1')).toEqual({ pk: 'CMDDONE#c1', sk: 'META' });
    expect(k.leaseKey(3)).toEqual({ pk: 'LEASES', sk: 'SHARD#0003' });
  });

  it('the auth table', () => {
    expect(k.authCredsKey('s1')).toEqual({ pk: 'AUTH#s1', sk: 'creds' });
    expect(k.authValueSk('pre-key', '7')).toBe('pre-key#7');
    expect(k.authPartSk('session#a', 2)).toBe('session#a#part#2');
  });
});
