import type { GroupMetadata, ParticipantAction, WASocket } from '@whiskeysockets/baileys';
import type { DriverLink } from '../driver.ts';
import { groupIdOfJid, phoneOfJid } from './jids.ts';
import { toGroupJid, toJid } from './outbound.ts';

type GroupActionInput = Parameters<DriverLink['groupAction']>[0];

const ACTIONS: Record<string, string> = {
  create: 'create',
  subject: 'subject',
  updatesubject: 'subject',
  description: 'description',
  updatedescription: 'description',
  add: 'add',
  remove: 'remove',
  promote: 'promote',
  demote: 'demote',
  leave: 'leave',
  metadata: 'metadata',
  info: 'metadata',
};

/**
 * Group administration. Group ids in and out are `<id>@g.us`, participants phone digits.
 * Answers what the caller may want to show (e.g. `{ groupId }` of a created group).
 */
export async function groupAction(
  sock: WASocket,
  a: GroupActionInput,
  seen: (g: GroupMetadata) => void,
): Promise<Record<string, unknown>> {
  const action = ACTIONS[a.action.replace(/[\s_-]/g, '').toLowerCase()];
  if (!action) throw new Error(`unknown group action: ${a.action}`);
  const participants = (a.participants ?? []).map(toJid);
  if (action === 'create') {
    if (!a.subject) throw new Error('creating a group needs a subject');
    const g = await sock.groupCreate(a.subject, participants);
    seen(g);
    return { groupId: groupIdOfJid(g.id), subject: g.subject };
  }
  if (!a.groupId) throw new Error(`group action ${a.action} needs a groupId`);
  const gid = toGroupJid(a.groupId);
  const groupId = groupIdOfJid(gid);
  switch (action) {
    case 'subject':
      if (!a.subject) throw new Error('a subject is required');
      await sock.groupUpdateSubject(gid, a.subject);
      return { groupId, subject: a.subject };
    case 'description':
      await sock.groupUpdateDescription(gid, a.description || undefined);
      return { groupId };
    case 'leave':
      await sock.groupLeave(gid);
      return { groupId, left: true };
    case 'metadata': {
      const g = await sock.groupMetadata(gid);
      seen(g);
      return { groupId, subject: g.subject, size: g.participants.length };
    }
    default: {
      if (participants.length === 0) throw new Error(`group action ${action} needs participants`);
      const res = await sock.groupParticipantsUpdate(gid, participants, action as ParticipantAction);
      return {
        groupId,
        participants: res.map((r) => ({ phone: phoneOfJid(r.jid) ?? r.jid, status: r.status })),
      };
    }
  }
}
