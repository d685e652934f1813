import { phoneOfLid, type StoredChat, type StoredContact } from '#shared/contacts/repository';
import { chatOf } from '#shared/phone/jid';
import { isPhoneDigits } from '#shared/phone/number';
import { numberingPlan } from '#shared/phone/readable';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { chatsOf, contactsOf } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/** One lead: a person a session has talked with, by phone number. */
export interface ContactRow {
  /** Digits with country code, e.g. `919876543210`. */
  phone: string;
  /** The spaced international form, e.g. `+91 98765 43210`. */
  formatted: string;
  /** The name the network gave (push name or address-book name); empty when none is known. */
  name: string;
  /** The session the contact was first found in (sessions are read in the order given). */
  sessionId: string;
  /** Epoch ms of the contact's newest inbound message in that session, when one is stored. */
  lastMsgAt?: number;
}

export interface ContactSourceOptions {
  /** Items per DynamoDB page (default 500). */
  pageSize?: number;
}

/**
 * The contacts of the given sessions of one tenant, paged from DynamoDB and yielded one by one, so a
 * caller can stream any number of them. Read per session: first the stored contacts (`CT#`), then the
 * chats (`C#`) that no contact covers (a sender the network showed only by LID, resolved through the
 * session's LID → phone mapping). Left out: group chats, LIDs whose phone is not known, anything that
 * is not 7–15 digits. Deduplicated by phone across all the sessions: the first occurrence wins (its
 * name, session and last-message time) and later ones are dropped, since rows already went out.
 * Memory: one page and the set of phone numbers seen (about 100 bytes per contact).
 */
export async function* contactRows(
  tenantId: string,
  sessionIds: readonly string[],
  opt: ContactSourceOptions = {},
): AsyncGenerator<ContactRow> {
  const seen = new Set<string>();
  const plan = await numberingPlan();
  const pageSize = opt.pageSize ?? 500;
  const row = (phone: string, sessionId: string, name?: string, lastMsgAt?: number): ContactRow => ({
    phone,
    formatted: plan.readable(phone),
    name: name?.trim() ?? '',
    sessionId,
    ...(lastMsgAt !== undefined ? { lastMsgAt } : {}),
  });
  for (const sessionId of sessionIds) {
    for await (const page of dataTable.pages<StoredContact>({
      ...contactsOf(tenantId, sessionId),
      pageSize,
    })) {
      for (const c of page) {
        if (!isPhoneDigits(c.phone) || c.phone === c.lid || seen.has(c.phone)) continue;
        seen.add(c.phone);
        yield row(c.phone, sessionId, c.name, c.lastMsgAt);
      }
    }
    for await (const page of dataTable.pages<StoredChat>({ ...chatsOf(tenantId, sessionId), pageSize })) {
      for (const chat of page) {
        const who = chatOf(chat.chatId);
        let phone: string | undefined;
        if (who?.kind === 'phone') phone = who.digits;
        else if (who?.kind === 'lid') phone = await phoneOfLid(tenantId, sessionId, who.lid);
        if (!phone || !isPhoneDigits(phone) || seen.has(phone)) continue;
        seen.add(phone);
        yield row(phone, sessionId, chat.name, chat.lastMsgAt);
      }
    }
  }
}

/** Epoch ms → `YYYY-MM-DD HH:MM:SS` in UTC (the administrative exports' `LastMsgOn`); `''` when unknown. */
export function utcDateTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The sessions an export reads, in this order of precedence: `mobile` (one connected number, mobid or
 * session id) → that session; `sessionIds` (ids, mobids or numbers) → those, in the order given,
 * each once; neither → every active session of the tenant (oldest first). An unknown id or number
 * is 404 `SESSION_NOT_FOUND`: another tenant's sessions are never found.
 */
export async function targetSessions(
  tenantId: string,
  q: { sessionIds?: readonly string[]; mobile?: string },
): Promise<string[]> {
  if (q.mobile?.trim()) return [(await requireSession(tenantId, q.mobile)).sessionId];
  const named = (q.sessionIds ?? []).map((s) => s.trim()).filter(Boolean);
  if (named.length) {
    const ids: string[] = [];
    for (const n of named) {
      const id = (await requireSession(tenantId, n)).sessionId;
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }
  return (await listSessions(tenantId)).filter((s) => s.dbStatus === 'active').map((s) => s.sessionId);
}

/** `sessionIds` as an array or a comma-separated string → the list. */
export function sessionIdList(v: string | readonly string[] | undefined): string[] {
  if (v === undefined) return [];
  return (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter(Boolean);
}
