import { describe, expect, it } from 'vitest';
import { listChats, listContacts, listGroups, phoneOfLid } from '#shared/contacts/repository';
import { api, messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';

const sim = api();

/** What the network reveals about contacts, chats, groups and LIDs is stored as it arrives. */
describe('contacts, chats, groups and LID mappings', () => {
  it('persists them per session from inbound traffic', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const ids = [
      await simInbound({ sessionId: s.sessionId, from: '919811100001', name: 'Asha', text: 'hi' }),
      await simInbound({ sessionId: s.sessionId, from: '919811100001', name: 'Asha', text: 'again' }),
      await simInbound({
        sessionId: s.sessionId,
        from: '919811100002',
        name: 'Ravi',
        text: 'hidden',
        lid: true,
      }),
    ];
    // The chats are read once all three messages are stored (under load a run can be retried).
    for (const id of ids) await messageStored(t.api, id);
    const group = await sim.post('/_sim/groups', {
      sessionId: s.mobid,
      subject: 'Clinic staff',
      participants: [{ phone: '919811100003', name: 'Meera' }, { phone: '919811100004' }],
    });
    expect(group.status).toBe(200);

    const chats = await waitFor(async () => {
      const c = await listChats(t.id, s.sessionId);
      return c.length === 2 ? c : undefined;
    });
    const asha = chats.find((c) => c.chatId === '919811100001');
    expect(asha).toMatchObject({ name: 'Asha' });
    // Written at once for a new chat; a message within the minute after is counted with the chat's
    // next write (functions/events/chat-activity.ts), unless both came in one run.
    expect(asha?.inboundCount).toBeGreaterThanOrEqual(1);
    expect(asha?.inboundCount).toBeLessThanOrEqual(2);
    expect(asha?.lastMsgAt).toBeGreaterThan(Date.now() - 60_000);
    expect(chats.find((c) => c.chatId.endsWith('@lid'))?.inboundCount).toBe(1);

    const contacts = await listContacts(t.id, s.sessionId);
    expect(contacts.map((c) => [c.phone, c.name])).toContainEqual(['919811100001', 'Asha']);

    const lid = must(
      chats.find((c) => c.chatId.endsWith('@lid')),
      "an entry of chats where c.chatId.endsWith('@lid')",
    ).chatId.replace('@lid', '');
    expect(await waitFor(() => phoneOfLid(t.id, s.sessionId, lid))).toBe('919811100002');

    const groups = await waitFor(async () => {
      const g = await listGroups(t.id, s.sessionId);
      return g.length ? g : undefined;
    });
    expect(groups[0]).toMatchObject({ groupId: `${group.body.groupId}@g.us`, subject: 'Clinic staff' });
    expect(groups[0]?.participants).toEqual([
      { phone: '919811100003', name: 'Meera' },
      { phone: '919811100004' },
    ]);

    // Another tenant's view of the same session id is empty.
    const other = await newTenant();
    expect(await listChats(other.id, s.sessionId)).toEqual([]);
  });

  it('writes a contact again at once when the network shows a new name, and keeps its last message time to within a minute', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const from = '919811100005';
    const before = Date.now();
    for (const [name, text] of [
      ['Kiran', 'one'],
      ['Kiran', 'two'],
      ['Kiran Rao', 'three'],
    ] as const)
      await messageStored(t.api, await simInbound({ sessionId: s.sessionId, from, name, text }));
    const contact = await waitFor(async () => {
      const c = (await listContacts(t.id, s.sessionId)).find((x) => x.phone === from);
      return c?.name === 'Kiran Rao' ? c : undefined;
    });
    expect(contact.lastMsgAt).toBeGreaterThanOrEqual(before - 60_000);
    expect(contact.lastMsgAt).toBeLessThanOrEqual(Date.now());
    // The new name is written at once, with every message noted until then: the first and the
    // third, and the second unless its run was noted after the third's (runs are stored side by side;
    // then it waits for the chat's next write: functions/events/chat-activity.ts).
    const chat = await waitFor(async () =>
      (await listChats(t.id, s.sessionId)).find((c) => c.chatId === from && c.name === 'Kiran Rao'),
    );
    expect(chat.inboundCount).toBeGreaterThanOrEqual(2);
    expect(chat.inboundCount).toBeLessThanOrEqual(3);
  });
});
