import { z } from '@hono/zod-openapi';
import { type CsvColumn, csvHeaders, csvStream } from '../exports/csv.ts';
import { jsonEnvelopeStream, jsonStreamHeaders } from '../exports/json-stream.ts';
import { utcDateTime } from './contacts-source.ts';
import { type GroupRow, groupRows } from './groups-source.ts';

/** A group as the exports show it: the admin's (`/api/admin/export/groups`) and the tenant's (`/api/sessions/groups/export`). */
export const ExportedGroup = z
  .object({
    GroupName: z.string(),
    GroupId: z.string().openapi({ example: '120363012345678901@g.us' }),
    MembersCount: z.number().int(),
    Members: z.array(z.object({ Name: z.string(), Phone: z.string() })),
    TotalMessagesInGroup: z.number().int(),
    LastMsgOn: z.string(),
  })
  .openapi('ExportedGroup');

export const groupExportRow = (g: GroupRow) => ({
  GroupName: g.subject,
  GroupId: g.groupId,
  MembersCount: g.membersCount,
  Members: g.members.map((m) => ({ Name: m.name, Phone: m.phone })),
  TotalMessagesInGroup: g.totalMessages,
  LastMsgOn: utcDateTime(g.lastMsgAt),
});

export const groupColumns: CsvColumn<ReturnType<typeof groupExportRow>>[] = [
  { header: 'GroupName', value: (g) => g.GroupName },
  { header: 'GroupId', value: (g) => g.GroupId },
  { header: 'MembersCount', value: (g) => g.MembersCount },
  // One cell: `Name (Phone); Name (Phone)`, or the phone alone when the name is unknown.
  {
    header: 'Members',
    value: (g) => g.Members.map((m) => (m.Name ? `${m.Name} (${m.Phone})` : m.Phone)).join('; '),
  },
  { header: 'TotalMessagesInGroup', value: (g) => g.TotalMessagesInGroup },
  { header: 'LastMsgOn', value: (g) => g.LastMsgOn },
];

/** The groups of `sessions` (ids of the tenant's sessions) as export rows, one at a time. */
export async function* exportedGroups(tenantId: string, sessions: string[]) {
  for await (const g of groupRows(tenantId, sessions)) yield groupExportRow(g);
}

/** A file name's time stamp: `YYYYMMDDhhmmss` (UTC). */
export const exportStamp = () => new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');

/**
 * The groups export's answer, the admin's and the tenant's alike: a CSV file, or a streamed JSON
 * envelope `{success, groups: [...], totalGroups}`.
 */
export async function groupsExportAnswer(
  tenantId: string,
  sessions: string[],
  p: { format?: 'csv' | 'json'; bom?: boolean },
): Promise<Response> {
  const rows = exportedGroups(tenantId, sessions);
  if (p.format === 'csv')
    return new Response(await csvStream(groupColumns, rows, { bom: p.bom }), {
      status: 200,
      headers: csvHeaders(`groups-${exportStamp()}`),
    });
  return new Response(jsonEnvelopeStream({ success: true }, 'groups', rows, 'totalGroups'), {
    status: 200,
    headers: jsonStreamHeaders,
  });
}
