import type { StoredMessage } from '#shared/messages/message';
import { type MessageQuery, queryMessages } from '#shared/messages/repository';
import { lidJid } from '#shared/phone/jid';
import { PHONE_MAX_DIGITS } from '#shared/phone/number';
import { numberingPlan } from '#shared/phone/readable';
import type { Session } from '#shared/sessions/session';
import { lidsOf } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/** The LID mappings of a session whose phone is one of `phones`: one Query of the session's LID items. */
async function lidsOfPhones(tenantId: string, sessionId: string, phones: string[]): Promise<string[]> {
  const values: Record<string, string> = {};
  const keys = phones.map((p, i) => {
    values[`:p${i}`] = p;
    return `:p${i}`;
  });
  const items = await dataTable.query<{ lid: string }>({
    ...lidsOf(tenantId, sessionId),
    ascending: true,
    filter: { expression: `#phone IN (${keys.join(', ')})`, names: { '#phone': 'phone' }, values },
  });
  return items.map((i) => i.lid);
}

/**
 * A number as a user typed it, with or without country code, → the chats it can mean: the digits as
 * given, and for a national number (10 digits or fewer once a trunk `0` is dropped) the digits behind
 * each calling code of the sessions in scope; plus the `<lid>@lid` chats the network opened for those
 * numbers. `phones` lists the likeliest reading first.
 */
export async function chatsOfNumber(
  tenantId: string,
  digits: string,
  sessions: Session[],
): Promise<{ phones: string[]; chatIds: string[] }> {
  const national = digits.replace(/^0+/, '');
  const plan = await numberingPlan();
  const expanded = new Set<string>();
  if (national.length <= 10 || digits.startsWith('0')) {
    for (const s of sessions) {
      const cc = s.mobile_number ? plan.callingCode(s.mobile_number) : undefined;
      if (cc && `${cc}${national}`.length <= PHONE_MAX_DIGITS) expanded.add(`${cc}${national}`);
    }
  }
  const phoneList = [...new Set([...expanded, digits])];
  const lids = await Promise.all(sessions.map((s) => lidsOfPhones(tenantId, s.sessionId, phoneList)));
  return { phones: phoneList, chatIds: [...phoneList, ...new Set(lids.flat().map((l) => lidJid(l)))] };
}

const newestFirst = (a: StoredMessage, b: StoredMessage) =>
  b.timestampMs - a.timestampMs || (a.messageId < b.messageId ? 1 : -1);

/** The newest `limit` messages over several chats, newest first. */
export async function queryChats(
  base: Omit<MessageQuery, 'chatId'>,
  chatIds: string[],
  limit: number,
): Promise<StoredMessage[]> {
  const parts = await Promise.all(chatIds.map((chatId) => queryMessages({ ...base, chatId }, limit)));
  return parts.flat().sort(newestFirst).slice(0, limit);
}
