import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { listChats, listGroups } from '#shared/contacts/repository';
import { adminToken, api, baseUrl, newTenant, readySession, waitFor } from '../support/client.ts';

const sim = api();

const NAMES = {
  '919811400001': 'Sharma, Asha',
  '919811400002': 'Ravi "the builder" K',
  '919811400003': 'Line one\nLine two',
  '919811400004': 'മീര നായർ',
  '919811400005': '=HYPERLINK("http://x.example","click")',
};

async function csvOf(token: string, path: string, body: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The formula guard as docs/exports.md states it. */
const guarded = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

describe('administrative exports', () => {
  it('exports a tenant’s contacts and groups as JSON and CSV, deduplicated, with readable numbers', async () => {
    const t = await newTenant();
    const a = await readySession(t.api, 'a');
    const b = await readySession(t.api, 'b');
    const group = await sim.post('/_sim/groups', {
      sessionId: a.sessionId,
      subject: 'Clinic, staff',
      participants: [{ phone: '919811400001', name: 'Sharma, Asha' }, { phone: '919811400009' }],
    });
    for (const [from, name] of Object.entries(NAMES))
      await sim.post('/_sim/inbound', { sessionId: a.sessionId, from, name, text: 'hi' });
    await sim.post('/_sim/inbound', {
      sessionId: a.sessionId,
      from: '919811400002',
      name: NAMES['919811400002'],
      text: 'x',
      groupId: group.body.groupId,
    });
    await sim.post('/_sim/inbound', {
      sessionId: a.sessionId,
      from: '919811400003',
      name: NAMES['919811400003'],
      text: 'y',
      groupId: group.body.groupId,
    });
    await sim.post('/_sim/inbound', {
      sessionId: b.sessionId,
      from: '919811400001',
      name: 'Asha again',
      text: 'hi',
    });
    await waitFor(async () => (await listChats(t.id, a.sessionId)).length === 6, 15_000, 'chats of a');
    await waitFor(async () => (await listChats(t.id, b.sessionId)).length === 1, 15_000, 'chats of b');
    await waitFor(async () => (await listGroups(t.id, a.sessionId)).length === 1, 15_000, 'group');
    // Both group messages are counted at once when they come in one run; otherwise the second waits
    // for the chat's next write, a minute on (functions/events/chat-activity.ts, quiet-counts.ts).
    const groupChat = await waitFor(async () =>
      (await listChats(t.id, a.sessionId)).find((x) => x.chatId.endsWith('@g.us')),
    );
    expect([1, 2]).toContain(groupChat.inboundCount);

    const admin = api(await adminToken());
    const r = await admin.post('/api/admin/export/contacts', { tenantId: t.id });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.totalContacts).toBe(5);
    expect(r.body.contacts).toHaveLength(5);
    const asha = r.body.contacts.find((c: { RawNumber: string }) => c.RawNumber === '919811400001');
    expect(asha).toEqual({
      Name: 'Sharma, Asha',
      Number: '+91 98114 00001',
      RawNumber: '919811400001',
      LastMsgOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      Session: a.sessionId,
    });
    const msgAt = Date.parse(`${asha.LastMsgOn.replace(' ', 'T')}Z`);
    expect(Math.abs(msgAt - Date.now())).toBeLessThan(120_000);
    expect(r.body.contacts.find((c: { RawNumber: string }) => c.RawNumber === '919811400004').Name).toBe(
      'മീര നായർ',
    );

    // Parameters in the query work as well, and sessionIds narrows the sessions.
    const onlyB = await admin.post(`/api/admin/export/contacts?tenantId=${t.id}&sessionIds=${b.sessionId}`);
    expect(onlyB.body.contacts).toEqual([
      expect.objectContaining({ Name: 'Asha again', Session: b.sessionId }),
    ]);

    // CSV parses back to the same rows (names with commas, quotes, newlines, Malayalam; formula guard).
    const csv = await csvOf(await adminToken(), '/api/admin/export/contacts', {
      tenantId: t.id,
      format: 'csv',
      bom: true,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="contacts-\d+\.csv"/);
    expect([...csv.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(csv.bytes);
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toEqual(
      r.body.contacts.map((c: Record<string, string>) =>
        Object.fromEntries(Object.entries(c).map(([k, v]) => [k, guarded(v)])),
      ),
    );
    const formula = rows.find((x) => x.RawNumber === '919811400005');
    expect(formula?.Name).toBe(`'${NAMES['919811400005']}`);
    expect(rows.find((x) => x.RawNumber === '919811400003')?.Name).toBe('Line one\nLine two');
    expect(rows.find((x) => x.RawNumber === '919811400002')?.Name).toBe('Ravi "the builder" K');
    expect(rows.find((x) => x.RawNumber === '919811400001')?.Number).toBe("'+91 98114 00001");

    // Groups.
    const g = await admin.post('/api/admin/export/groups', { tenantId: t.id, format: 'json' });
    expect(g.status).toBe(200);
    expect(g.body).toEqual({
      success: true,
      totalGroups: 1,
      groups: [
        {
          GroupName: 'Clinic, staff',
          GroupId: `${group.body.groupId}@g.us`,
          MembersCount: 2,
          Members: [
            { Name: 'Sharma, Asha', Phone: '+91 98114 00001' },
            { Name: '', Phone: '+91 98114 00009' },
          ],
          TotalMessagesInGroup: groupChat.inboundCount,
          LastMsgOn: new Date(groupChat.lastMsgAt).toISOString().slice(0, 19).replace('T', ' '),
        },
      ],
    });
    const gq = await admin.post(`/api/admin/export/groups?tenantId=${t.id}&sessionId=${b.sessionId}`);
    expect(gq.body).toEqual({ success: true, totalGroups: 0, groups: [] });
    const gcsv = await csvOf(await adminToken(), '/api/admin/export/groups', {
      tenantId: t.id,
      format: 'csv',
    });
    const grows = parse(new TextDecoder().decode(gcsv.bytes), { columns: true });
    expect(grows).toEqual([
      {
        GroupName: 'Clinic, staff',
        GroupId: `${group.body.groupId}@g.us`,
        MembersCount: '2',
        Members: 'Sharma, Asha (+91 98114 00001); +91 98114 00009',
        TotalMessagesInGroup: String(groupChat.inboundCount),
        LastMsgOn: g.body.groups[0].LastMsgOn,
      },
    ]);
  });

  it('no CSV export lets a line break in a name start a formula row (tenant, admin contacts, groups)', async () => {
    const t = await newTenant();
    const s = await readySession(t.api, 'hostile');
    const hostile = {
      '919811400071': 'Asha\r=1+2',
      '919811400072': "Ravi\n@SUM(1+1)*cmd|' /C calc'!A0",
      '919811400073': 'Meera\r\n+HYPERLINK("http://x")',
    };
    const group = await sim.post('/_sim/groups', {
      sessionId: s.sessionId,
      subject: 'Staff\n=cmd|calc',
      participants: [{ phone: '919811400071', name: hostile['919811400071'] }],
    });
    for (const [from, name] of Object.entries(hostile))
      await sim.post('/_sim/inbound', { sessionId: s.sessionId, from, name, text: 'hi' });
    await sim.post('/_sim/inbound', {
      sessionId: s.sessionId,
      from: '919811400071',
      name: hostile['919811400071'],
      text: 'x',
      groupId: group.body.groupId,
    });
    await waitFor(async () => (await listChats(t.id, s.sessionId)).length >= 3, 15_000, 'chats');
    await waitFor(async () => (await listGroups(t.id, s.sessionId)).length >= 1, 15_000, 'group');
    const admin = await adminToken();
    const exports = [
      await csvOf(t.token, '/api/sessions/contacts/export', { exportType: 'csv' }),
      await csvOf(admin, '/api/admin/export/contacts', { tenantId: t.id, format: 'csv' }),
      await csvOf(admin, '/api/admin/export/groups', { tenantId: t.id, format: 'csv' }),
    ];
    for (const e of exports) {
      expect(e.status).toBe(200);
      const out = new TextDecoder().decode(e.bytes).replace(/^\uFEFF/, '');
      // Read as a spreadsheet app may: a row at every CR or LF, quotes honoured.
      const rows = parse(out, {
        record_delimiter: ['\r\n', '\n', '\r'],
        relax_column_count: true,
      }) as string[][];
      for (const row of rows)
        for (const cell of row)
          for (const line of cell.split(/\r\n|\r|\n/))
            expect(line, JSON.stringify(row)).not.toMatch(/^[=+@\t]|^-[^\d\s]/);
      // And the guarded text is all there, one cell each.
      expect(out).toContain("'=");
    }
  });

  it('is admin only, checks the tenant and the format, and by default exports the admin tenant only', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await sim.post('/_sim/inbound', {
      sessionId: s.sessionId,
      from: '919811500001',
      name: 'Tenant lead',
      text: 'hi',
    });
    await waitFor(async () => (await listChats(t.id, s.sessionId)).length === 1, 15_000, 'chat');
    for (const path of ['/api/admin/export/contacts', '/api/admin/export/groups']) {
      const forbidden = await t.api.post(path, {});
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe('FORBIDDEN');
      expect((await api().post(path, {})).status).toBe(401);
    }
    const admin = api(await adminToken());
    const own = await admin.post('/api/admin/export/contacts', {});
    expect(own.status).toBe(200);
    expect(own.body.contacts.some((c: { RawNumber: string }) => c.RawNumber === '919811500001')).toBe(false);
    const unknown = await admin.post('/api/admin/export/contacts', { tenantId: 'tnt_nope' });
    expect(unknown.status).toBe(404);
    const badFormat = await admin.post('/api/admin/export/contacts', { tenantId: t.id, format: 'xml' });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toContain('format');
    const otherSession = await admin.post('/api/admin/export/contacts', { sessionIds: [s.sessionId] });
    expect(otherSession.status).toBe(404);
  });
});
