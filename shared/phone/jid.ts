/**
 * JIDs (`<user>[:<device>]@<server>`) as far as our own shapes use them. A chat id is the contact's
 * phone digits, `<id>@g.us` for a group, or `<lid>@lid` for a contact the network shows only by a LID
 * (its own number for a user, which is not a phone number). The network's user JID is
 * `<digits>@s.whatsapp.net` (`@c.us` is its legacy spelling).
 *
 * Read a JID with `parseJid`, never with `split('@')`: the user part may carry a device (`:3`) or an
 * agent (`_1`), and a string without `@` is not a JID at all.
 */

export const USER_SERVER = 's.whatsapp.net';
export const LEGACY_USER_SERVER = 'c.us';
export const LID_SERVER = 'lid';
export const GROUP_SERVER = 'g.us';
/** Where status stories are posted. */
export const STATUS_JID = 'status@broadcast';

export interface Jid {
  /** Without device or agent. */
  user: string;
  server: string;
  device?: number;
}

export function parseJid(jid: string): Jid | undefined {
  const at = jid.indexOf('@');
  if (at < 0) return undefined;
  const server = jid.slice(at + 1);
  const combined = jid.slice(0, at);
  const colon = combined.indexOf(':');
  const withAgent = colon < 0 ? combined : combined.slice(0, colon);
  const underscore = withAgent.indexOf('_');
  const user = underscore < 0 ? withAgent : withAgent.slice(0, underscore);
  const device = colon < 0 ? undefined : Number(combined.slice(colon + 1));
  return device === undefined || Number.isNaN(device) ? { user, server } : { user, server, device };
}

const withDevice = (user: string, device?: number) => (device ? `${user}:${device}` : user);

export const userJid = (digits: string, device?: number) => `${withDevice(digits, device)}@${USER_SERVER}`;
export const lidJid = (lid: string, device?: number) => `${withDevice(lid, device)}@${LID_SERVER}`;
/** A group's id with or without its server (`120363…` or `120363…@g.us`) → `<id>@g.us`. */
export const groupJid = (id: string) => (isGroupJid(id) ? id : `${id}@${GROUP_SERVER}`);

/**
 * A group id as users write it, `<id>@g.us` or the bare `<id>` (digits; the old form is
 * `<creator>-<time>`) → `<id>@g.us`; undefined when it is not one.
 */
export function writtenGroupJid(text: string): string | undefined {
  const t = text.trim();
  const j = parseJid(t);
  const id = j ? (j.server === GROUP_SERVER && j.device === undefined ? j.user : undefined) : t;
  return id !== undefined && /^\d[\d-]*$/.test(id) ? groupJid(id) : undefined;
}

const serverIs = (jid: string, ...servers: string[]) => {
  const server = parseJid(jid)?.server;
  return server !== undefined && servers.includes(server);
};
export const isGroupJid = (jid: string) => serverIs(jid, GROUP_SERVER);
export const isLidJid = (jid: string) => serverIs(jid, LID_SERVER);
export const isUserJid = (jid: string) => serverIs(jid, USER_SERVER, LEGACY_USER_SERVER);

/** The user part of a JID of that server (`123456789012345@lid` → `123456789012345`). */
const userAt =
  (...servers: string[]) =>
  (jid: string): string | undefined => {
    const j = parseJid(jid);
    return j && servers.includes(j.server) ? j.user : undefined;
  };
/** The phone digits of a user JID (`919876543210:3@s.whatsapp.net` → `919876543210`). */
export const phoneOfJid = userAt(USER_SERVER, LEGACY_USER_SERVER);
export const lidOfJid = userAt(LID_SERVER);
export const groupOfJid = userAt(GROUP_SERVER);

/** Who a chat (or a sender) is: a phone number, a group, or a LID whose phone is not known. */
export type Chat =
  | { kind: 'phone'; digits: string }
  | { kind: 'group'; id: string }
  | { kind: 'lid'; lid: string };

/**
 * A chat id (or any JID) → what it names. Digits without a server, and user JIDs, are phones; a JID
 * of any other server (a broadcast list, a newsletter) is none of ours.
 */
export function chatOf(chatId: string): Chat | undefined {
  const j = parseJid(chatId);
  if (!j) return { kind: 'phone', digits: chatId };
  if (j.server === GROUP_SERVER) return { kind: 'group', id: j.user };
  if (j.server === LID_SERVER) return { kind: 'lid', lid: j.user };
  if (j.server === USER_SERVER || j.server === LEGACY_USER_SERVER) return { kind: 'phone', digits: j.user };
  return undefined;
}

/** Our chat id for a chat: digits, `<id>@g.us` or `<lid>@lid`. */
export const chatIdOf = (c: Chat) =>
  c.kind === 'phone' ? c.digits : c.kind === 'group' ? groupJid(c.id) : lidJid(c.lid);

/** The network's JID for a chat. */
export const jidOfChat = (c: Chat) =>
  c.kind === 'phone' ? userJid(c.digits) : c.kind === 'group' ? groupJid(c.id) : lidJid(c.lid);
