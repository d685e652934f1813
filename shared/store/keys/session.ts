/*
 * A session's partition `T#<t>#S#<sid>`: its messages, contacts, chats, groups and LID mappings.
 */

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
