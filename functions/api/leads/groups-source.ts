import { phoneOfLid, type StoredChat } from '#shared/contacts/repository';
import { chatOf, groupJid } from '#shared/phone/jid';
import { isPhoneDigits } from '#shared/phone/number';
import { numberingPlan } from '#shared/phone/readable';
import { chatKey, groupsOf } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

interface StoredGroup {
  groupId: string;
  subject: string;
  participants?: Array<{ phone: string; name?: string }>;
}

export interface GroupRow {
  /** `<id>@g.us`. */
  groupId: string;
  subject: string;
  /** Every participant the network listed, including those shown only by an unresolved LID. */
  membersCount: number;
  /** Participants whose phone is known, with the spaced international number. */
  members: Array<{ name: string; phone: string }>;
  /** Inbound messages stored for the group's chat in that session (the chat's `inboundCount`). */
  totalMessages: number;
  /** Epoch ms of the group's newest inbound message, when one is stored. */
  lastMsgAt?: number;
  sessionId: string;
}

/**
 * The groups of the given sessions, paged from DynamoDB (the `G#` items the network reported) and
 * joined with each group's chat item (`C#<id>@g.us`: message count, last message). Deduplicated by
 * group id across sessions: the first session that knows the group wins.
 */
export async function* groupRows(
  tenantId: string,
  sessionIds: readonly string[],
  opt: { pageSize?: number } = {},
): AsyncGenerator<GroupRow> {
  const seen = new Set<string>();
  const plan = await numberingPlan();
  for (const sessionId of sessionIds) {
    for await (const page of dataTable.pages<StoredGroup>({
      ...groupsOf(tenantId, sessionId),
      pageSize: opt.pageSize ?? 100,
    })) {
      for (const g of page) {
        const id = groupJid(g.groupId);
        if (seen.has(id)) continue;
        seen.add(id);
        const chat = await dataTable.get<StoredChat>(chatKey(tenantId, sessionId, id));
        const participants = g.participants ?? [];
        const members: GroupRow['members'] = [];
        for (const p of participants) {
          const who = chatOf(p.phone);
          let phone: string | undefined;
          if (who?.kind === 'phone') phone = who.digits;
          else if (who?.kind === 'lid') phone = await phoneOfLid(tenantId, sessionId, who.lid);
          if (phone && isPhoneDigits(phone))
            members.push({ name: p.name?.trim() ?? '', phone: plan.readable(phone) });
        }
        yield {
          groupId: id,
          subject: g.subject ?? '',
          membersCount: participants.length,
          members,
          totalMessages: chat?.inboundCount ?? 0,
          ...(chat?.lastMsgAt !== undefined ? { lastMsgAt: chat.lastMsgAt } : {}),
          sessionId,
        };
      }
    }
  }
}
