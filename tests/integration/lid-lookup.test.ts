import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LidLookup, lookupPhoneOfLid } from '#shared/contacts/lid-cache';
import { saveLidMapping } from '#shared/contacts/repository';
import { lidKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/** The store-backed LID lookup that webhooks and the history views share. */
describe('LID → phone lookup', () => {
  const tenantId = `tnt_${randomBytes(8).toString('hex')}`;
  const sessionId = `qr_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const lid = () => String(100_000_000_000_000 + Math.floor(Math.random() * 1e14));

  it('finds a stored mapping by the bare LID or its JID, and keeps it once found', async () => {
    const l = lid();
    await saveLidMapping(tenantId, sessionId, l, '919812345678');
    expect(await lookupPhoneOfLid(tenantId, sessionId, `${l}@lid`)).toBe('919812345678');
    // Found once, it is served from the cache: a LID's phone does not change.
    await dataTable.delete(lidKey(tenantId, sessionId, l));
    expect(await lookupPhoneOfLid(tenantId, sessionId, l)).toBe('919812345678');
    // Scoped to the session: another session of the tenant has not been told.
    expect(await lookupPhoneOfLid(tenantId, `${sessionId}_other`, l)).toBeUndefined();
  });

  it('does not remember a miss: a mapping stored after the message is found', async () => {
    const l = lid();
    expect(await lookupPhoneOfLid(tenantId, sessionId, l)).toBeUndefined();
    await saveLidMapping(tenantId, sessionId, l, '919812345679');
    expect(await lookupPhoneOfLid(tenantId, sessionId, l)).toBe('919812345679');
  });

  it('finds a mapping stored under the JID form', async () => {
    const l = lid();
    await saveLidMapping(tenantId, sessionId, `${l}@lid`, '919812345670');
    expect(await lookupPhoneOfLid(tenantId, sessionId, `${l}@lid`)).toBe('919812345670');
  });

  it('reads each LID once per request, found or not', async () => {
    const l = lid();
    const lookup = new LidLookup(tenantId);
    expect(await lookup.phoneOf(sessionId, l)).toBeUndefined();
    await saveLidMapping(tenantId, sessionId, l, '919812345671');
    expect(await lookup.phoneOf(sessionId, `${l}@lid`)).toBeUndefined();
    expect(await new LidLookup(tenantId).phoneOf(sessionId, l)).toBe('919812345671');
  });
});
