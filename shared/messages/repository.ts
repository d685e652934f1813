import { dataTable } from '../store/tables.ts';
import { type StoredMessage, statusRank } from './message.ts';
import type { MessageStatus } from '../events/types.ts';

const sessionPk = (tenantId: string, sessionId: string) => `T#${tenantId}#S#${sessionId}`;
export const feedPk = (tenantId: string) => `T#${tenantId}#FEED`;
export const chatPk = (tenantId: string, chatId: string) => `T#${tenantId}#C#${chatId}`;
/** Sort key of the tenant feed and chat indexes; also the SSE event id. */
export const orderKey = (m: Pick<StoredMessage, 'timestampMs' | 'messageId'>) =>
  `${String(m.timestampMs).padStart(13, '0')}#${m.messageId}`;

export const messageKey = (tenantId: string, sessionId: string, messageId: string) => ({
  pk: sessionPk(tenantId, sessionId),
  sk: `M#${messageId}`,
});

/** Stores a message once; a second save of the same id is a no-op that answers false. */
export async function saveMessage(m: StoredMessage): Promise<boolean> {
  return dataTable.put(
    {
      ...messageKey(m.tenantId, m.sessionId, m.messageId),
      gsi1pk: feedPk(m.tenantId),
      gsi1sk: orderKey(m),
      gsi2pk: chatPk(m.tenantId, m.chatId),
      gsi2sk: orderKey(m),
      type: 'message',
      ...m,
      statusRank: statusRank(m.status),
    },
    { ifAbsent: true },
  );
}

export async function getMessage(tenantId: string, sessionId: string, messageId: string) {
  return dataTable.get<StoredMessage>(messageKey(tenantId, sessionId, messageId));
}

/** Moves the status forward only; answers the updated message, or undefined when nothing changed. */
export async function advanceStatus(
  tenantId: string,
  sessionId: string,
  messageId: string,
  status: MessageStatus,
  at: number,
  reason?: string,
): Promise<StoredMessage | undefined> {
  return dataTable.update<StoredMessage>(
    messageKey(tenantId, sessionId, messageId),
    { status, statusRank: statusRank(status), statusAt: at, statusReason: reason },
    {
      condition: 'attribute_exists(pk) AND statusRank < :rank AND #st <> :failed',
      names: { '#st': 'status' },
      values: { ':rank': statusRank(status), ':failed': 'failed' },
    },
  );
}

/** The tenant's messages, newest first, or those after an order key (oldest first) for SSE replay. */
export async function tenantFeed(tenantId: string, opt: { limit?: number; after?: string } = {}) {
  return dataTable.query<StoredMessage & { gsi1sk: string }>({
    index: 'gsi1',
    pk: feedPk(tenantId),
    skAfter: opt.after,
    ascending: opt.after !== undefined,
    limit: opt.limit,
  });
}
