import { dataTable } from '../store/tables.ts';

const sessionPk = (tenantId: string, sessionId: string) => `T#${tenantId}#S#${sessionId}`;

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
    const key = { pk: sessionPk(tenantId, sessionId), sk: `CT#${c.phone}` };
    await dataTable.update(key, {
      type: 'contact',
      tenantId,
      sessionId,
      phone: c.phone,
      name: c.name,
      lid: c.lid,
    });
    if (lastMsgAt !== undefined) {
      await dataTable.update(
        key,
        { lastMsgAt },
        { condition: 'attribute_not_exists(lastMsgAt) OR lastMsgAt < :t', values: { ':t': lastMsgAt } },
      );
    }
  }
}

export async function listContacts(tenantId: string, sessionId: string): Promise<StoredContact[]> {
  return dataTable.query<StoredContact>({
    pk: sessionPk(tenantId, sessionId),
    skBeginsWith: 'CT#',
    ascending: true,
  });
}

export async function saveGroup(
  tenantId: string,
  sessionId: string,
  g: { groupId: string; subject: string; participants: Array<{ phone: string; name?: string }> },
): Promise<void> {
  await dataTable.put({
    pk: sessionPk(tenantId, sessionId),
    sk: `G#${g.groupId}`,
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
  }>({ pk: sessionPk(tenantId, sessionId), skBeginsWith: 'G#', ascending: true });
}

export async function saveLidMapping(
  tenantId: string,
  sessionId: string,
  lid: string,
  phone: string,
): Promise<void> {
  await dataTable.put({ pk: sessionPk(tenantId, sessionId), sk: `LID#${lid}`, type: 'lid', lid, phone });
}

/** The phone digits behind a LID, if the network has revealed them to this session. */
export async function phoneOfLid(
  tenantId: string,
  sessionId: string,
  lid: string,
): Promise<string | undefined> {
  const item = await dataTable.get<{ phone: string }>({
    pk: sessionPk(tenantId, sessionId),
    sk: `LID#${lid}`,
  });
  return item?.phone;
}

export interface StoredChat {
  chatId: string;
  name?: string;
  lastMsgAt: number;
  inboundCount: number;
}

/**
 * A chat (contact or group) of a session: the last inbound message time and how many arrived, for
 * exports and lead lists. Call once per newly stored message.
 */
export async function recordChatActivity(
  tenantId: string,
  sessionId: string,
  chatId: string,
  at: number,
  name?: string,
): Promise<void> {
  const key = { pk: sessionPk(tenantId, sessionId), sk: `C#${chatId}` };
  await dataTable.update(
    key,
    { type: 'chat', tenantId, sessionId, chatId, name },
    { add: { inboundCount: 1 } },
  );
  await dataTable.update(
    key,
    { lastMsgAt: at },
    { condition: 'attribute_not_exists(lastMsgAt) OR lastMsgAt < :t', values: { ':t': at } },
  );
}

export async function listChats(tenantId: string, sessionId: string): Promise<StoredChat[]> {
  return dataTable.query<StoredChat>({
    pk: sessionPk(tenantId, sessionId),
    skBeginsWith: 'C#',
    ascending: true,
  });
}
