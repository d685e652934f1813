import { chatKey, chatsOf, contactKey, contactsOf, groupKey, groupsOf, lidKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

export interface StoredContact {
  phone: string;
  name?: string;
  lid?: string;
  lastMsgAt?: number;
}

/** Upserts contacts; a name or last-message time only ever fills in or moves forward. */
export async function saveContacts(
  tenantId: string,
  sessionId: string,
  contacts: Array<{ phone: string; name?: string; lid?: string }>,
  lastMsgAt?: number,
): Promise<void> {
  for (const c of contacts) {
    const key = contactKey(tenantId, sessionId, c.phone);
    const fields = { type: 'contact', tenantId, sessionId, phone: c.phone, name: c.name, lid: c.lid };
    // One write when the message is the contact's newest (the usual case), two otherwise.
    if (lastMsgAt === undefined) {
      await dataTable.update(key, fields);
      continue;
    }
    if (await newerActivity(key, fields, lastMsgAt)) continue;
    // An older message's name does not replace the newer one's (messages can be stored out of order).
    await dataTable.update(key, { ...fields, name: undefined });
  }
}

/** Sets `fields` and `lastMsgAt` in one write when `at` is later than the item's; false otherwise. */
async function newerActivity(
  key: { pk: string; sk: string },
  fields: Record<string, unknown>,
  at: number,
  add?: Record<string, number>,
): Promise<boolean> {
  const updated = await dataTable.update(
    key,
    { ...fields, lastMsgAt: at },
    { condition: 'attribute_not_exists(lastMsgAt) OR lastMsgAt < :t', values: { ':t': at }, add },
  );
  return updated !== undefined;
}

export async function listContacts(tenantId: string, sessionId: string): Promise<StoredContact[]> {
  return dataTable.query<StoredContact>({ ...contactsOf(tenantId, sessionId), ascending: true });
}

export async function saveGroup(
  tenantId: string,
  sessionId: string,
  g: { groupId: string; subject: string; participants: Array<{ phone: string; name?: string }> },
): Promise<void> {
  await dataTable.put({
    ...groupKey(tenantId, sessionId, g.groupId),
    type: 'group',
    tenantId,
    sessionId,
    groupId: g.groupId,
    subject: g.subject,
    participants: g.participants,
  });
}

export async function listGroups(tenantId: string, sessionId: string) {
  return dataTable.query<{
    groupId: string;
    subject: string;
    participants: Array<{ phone: string; name?: string }>;
  }>({ ...groupsOf(tenantId, sessionId), ascending: true });
}

export async function saveLidMapping(
  tenantId: string,
  sessionId: string,
  lid: string,
  phone: string,
): Promise<void> {
  await dataTable.put({ ...lidKey(tenantId, sessionId, lid), type: 'lid', lid, phone });
}

/** The phone digits behind a LID, if the network has revealed them to this session. */
export async function phoneOfLid(
  tenantId: string,
  sessionId: string,
  lid: string,
): Promise<string | undefined> {
  const item = await dataTable.get<{ phone: string }>(lidKey(tenantId, sessionId, lid));
  return item?.phone;
}

export interface StoredChat {
  chatId: string;
  name?: string;
  lastMsgAt: number;
  inboundCount: number;
  /** The time of the newest message marked read through the API: the unread count starts after it. */
  readUpTo?: number;
}

/**
 * A chat (contact or group) of a session: the last inbound message time and how many arrived, for
 * exports and lead lists. `count` messages newly stored (the events consumer writes a busy chat once
 * a minute with the messages counted meanwhile: functions/events/chat-activity.ts).
 */
export async function recordChatActivity(
  tenantId: string,
  sessionId: string,
  chatId: string,
  at: number,
  name?: string,
  count = 1,
): Promise<void> {
  const key = chatKey(tenantId, sessionId, chatId);
  const fields = { type: 'chat', tenantId, sessionId, chatId, name };
  // One write when this is the chat's newest message (the usual case), two otherwise.
  if (await newerActivity(key, fields, at, { inboundCount: count })) return;
  // An older message's name does not replace the newer one's (messages can be stored out of order).
  await dataTable.update(key, { ...fields, name: undefined }, { add: { inboundCount: count } });
}

/** Whether the session has a chat with `chatId` (a message arrived from it). */
export async function hasChat(tenantId: string, sessionId: string, chatId: string): Promise<boolean> {
  return Boolean(await dataTable.get(chatKey(tenantId, sessionId, chatId)));
}

export async function listChats(tenantId: string, sessionId: string): Promise<StoredChat[]> {
  return dataTable.query<StoredChat>({ ...chatsOf(tenantId, sessionId), ascending: true });
}

/** Marks a chat read up to a message time; the mark only moves forward. */
export async function markChatRead(
  tenantId: string,
  sessionId: string,
  chatId: string,
  upTo: number,
): Promise<void> {
  await dataTable.update(
    chatKey(tenantId, sessionId, chatId),
    { type: 'chat', tenantId, sessionId, chatId, readUpTo: upTo },
    { condition: 'attribute_not_exists(readUpTo) OR readUpTo < :t', values: { ':t': upTo } },
  );
}
