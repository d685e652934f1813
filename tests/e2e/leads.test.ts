import { describe, expect, it } from 'vitest';
import { listChats, recordChatActivity } from '#shared/contacts/repository';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';

const sim = api();

/** Sends inbound messages and waits until the chats are stored (the events consumer took them up). */
async function inbound(
  tenantId: string,
  sessionId: string,
  msgs: Array<Record<string, unknown>>,
  chats: number,
) {
  for (const m of msgs) {
    const r = await sim.post('/_sim/inbound', { sessionId, text: 'hi', ...m });
    expect(r.status).toBe(200);
  }
  await waitFor(async () => (await listChats(tenantId, sessionId)).length >= chats, 15_000, 'chats stored');
}

describe('GET /api/sessions/leads', () => {
  it('returns the deduplicated contacts of all active sessions with readable numbers; no groups or unresolved LIDs', async () => {
    const t = await newTenant();
    const a = await readySession(t.api, 'a');
    const b = await readySession(t.api, 'b');
    const group = await sim.post('/_sim/groups', {
      sessionId: a.sessionId,
      subject: 'Staff',
      participants: [{ phone: '919811200009', name: 'Member' }],
    });
    await inbound(
      t.id,
      a.sessionId,
      [
        { from: '919811200001', name: 'Asha' },
        { from: '919811200001', name: 'Asha' },
        { from: '919811200002', name: 'Ravi', lid: true },
        { from: '919811200003', name: 'In group', groupId: group.body.groupId },
      ],
      3,
    );
    await inbound(
      t.id,
      b.sessionId,
      [
        { from: '919811200001', name: 'Asha B' },
        { from: '14155550100', name: 'Ann' },
      ],
      2,
    );
    // A LID chat whose phone the network never revealed.
    await recordChatActivity(t.id, a.sessionId, '111122223333444@lid', Date.now(), 'Hidden');

    const r = await t.api.get('/api/sessions/leads');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body.success).toBe(true);
    expect(r.body.targetSessions.sort()).toEqual([a.sessionId, b.sessionId].sort());
    const phones = r.body.contacts.map((c: { phone_number: string }) => c.phone_number).sort();
    // Asha once (deduplicated across sessions), Ravi resolved from his LID, the group's sender; no group, no LID.
    expect(phones).toEqual(['14155550100', '919811200001', '919811200002', '919811200003']);
    expect(r.body.totalScraped).toBe(4);
    const ann = r.body.contacts.find((c: { phone_number: string }) => c.phone_number === '14155550100');
    expect(ann).toEqual({
      phone_number: '14155550100',
      formatted_number: '+1 415 555 0100',
      name: 'Ann',
      session_id: b.sessionId,
      extracted_at: expect.any(String),
    });
    expect(new Date(ann.extracted_at).toISOString()).toBe(ann.extracted_at);
    const asha = r.body.contacts.find((c: { phone_number: string }) => c.phone_number === '919811200001');
    expect(asha.formatted_number).toBe('+91 98112 00001');
    for (const c of r.body.contacts) {
      expect(c.phone_number).toMatch(/^\d{7,15}$/);
      expect(c.formatted_number).not.toContain('@');
    }

    // sessionIds (comma string) and mobile select sessions.
    const onlyB = await t.api.get(`/api/sessions/leads?sessionIds=${b.sessionId}`);
    expect(onlyB.body.targetSessions).toEqual([b.sessionId]);
    expect(onlyB.body.contacts.map((c: { phone_number: string }) => c.phone_number).sort()).toEqual([
      '14155550100',
      '919811200001',
    ]);
    expect(onlyB.body.contacts.find((c: { name: string }) => c.name === 'Asha B')).toBeTruthy();
    const both = await t.api.get(`/api/sessions/leads?sessionIds=${b.sessionId},${a.sessionId}`);
    expect(both.body.targetSessions).toEqual([b.sessionId, a.sessionId]);
    expect(both.body.totalScraped).toBe(4);
    const byMobile = await t.api.get(
      `/api/sessions/leads?mobile=${encodeURIComponent(`+${a.mobile_number}`)}`,
    );
    expect(byMobile.status).toBe(200);
    expect(byMobile.body.targetSessions).toEqual([a.sessionId]);
    expect(byMobile.body.totalScraped).toBe(3);
  });

  it('keeps tenants apart and answers 404 for a session of another tenant', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await inbound(t.id, s.sessionId, [{ from: '919811300001', name: 'Mine' }], 1);
    const other = await newTenant();
    const empty = await other.api.get('/api/sessions/leads');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ success: true, targetSessions: [], contacts: [], totalScraped: 0 });
    const r = await other.api.get(`/api/sessions/leads?sessionIds=${s.sessionId}`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('SESSION_NOT_FOUND');
    expect((await api().get('/api/sessions/leads')).status).toBe(401);
  });
});
