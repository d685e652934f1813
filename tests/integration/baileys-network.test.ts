import { randomBytes } from 'node:crypto';
import { getBinaryNodeChild, getBinaryNodeChildren, proto } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromVCard, toVCard } from '#shared/messages/vcard';
import { AUTH_CREDS_SK, authPk } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import { type DriverLink, SendRefusedError } from '../../connection-host/drivers/driver.ts';
import { type DriverNetwork, recorder, startShopNetwork } from '../support/baileys-driver-rig.ts';
import type { Companion, FakeNetwork, FakeUser } from '../support/fake-network/index.ts';
import { must } from '../support/must.ts';

/**
 * The real Baileys driver (socket, Noise, Signal, our DynamoDB auth state) against the fake network
 * edge in tests/support/fake-network: linking, login from saved creds, messages both ways,
 * receipts and server-initiated disconnects, all over a real WebSocket.
 */

let rig: DriverNetwork;
let net: FakeNetwork;
let me: FakeUser;
let asha: FakeUser;
/** expect.poll with room for a loaded machine (its default gives up after 1 s). */
const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 10_000 });
/** What the host's store keeps of sent messages (sent-media.ts): here in memory. */
const kept = new Map<string, { wire: Uint8Array; keep?: string }>();
const driver = () =>
  rig.driver({
    getMessage: async (_sid, id) => {
      const k = kept.get(id);
      return k
        ? { kind: k.keep === 'poll' ? 'poll' : 'image', direction: 'outbound', wire: k.wire }
        : undefined;
    },
    rememberSentMedia: async (_sid, id, wire, keep) => {
      kept.set(id, { wire, ...(keep ? { keep } : {}) });
    },
  });

beforeAll(async () => {
  ({ rig, net, me, asha } = await startShopNetwork('bln', { me: '919876543210', asha: '14155550100' }));
});

afterAll(async () => {
  await rig?.close();
});

const creds = async (sessionId: string) => {
  const items = await authTable.query<{ sk: string; v?: string }>({ pk: authPk(sessionId) });
  return items.find((i) => i.sk === AUTH_CREDS_SK);
};

describe('Baileys driver against the fake network', () => {
  const sessionId = `s-${randomBytes(4).toString('hex')}`;
  const request = { tenantId: 't1', sessionId, method: 'qr' as const };
  let device: Companion;
  let link: DriverLink;
  let rec: ReturnType<typeof recorder>;

  it('links by QR: QR shown and refreshed, phone scans, 515 restart, then open with the stored creds', async () => {
    const linking = recorder();
    const first = await driver().connect(request, linking.events);
    await poll(() => linking.qrs.length).toBe(1);
    net.refreshQr();
    await poll(() => linking.qrs.length).toBe(2);
    expect(linking.qrs[1]).not.toBe(linking.qrs[0]);

    device = await me.scanQr(linking.qrs[1] ?? '');
    await poll(() => linking.closes).toEqual([{ kind: 'restart', code: 515 }]);
    expect(linking.opens).toEqual([]);
    await first.close();

    // What the runtime does on `restart`: connect again with what was stored.
    rec = recorder();
    link = await driver().connect(request, rec.events);
    await poll(() => rec.opens).toEqual(['919876543210']);
    expect(rec.qrs).toEqual([]);
    expect(device.link).toBeDefined();
    expect((await creds(sessionId))?.v).toContain('919876543210:1@s.whatsapp.net');
  });

  it('after a restart logs in from the saved creds: no QR, same device', async () => {
    await link.close();
    await poll(() => device.link).toBeUndefined();
    rec = recorder();
    link = await driver().connect(request, rec.events);
    await poll(() => rec.opens).toEqual(['919876543210']);
    expect(rec.qrs).toEqual([]);
    expect(rec.closes).toEqual([]);
    expect([...me.companions.keys()]).toEqual([device.device]);
  });

  it('a text each way, Signal-encrypted end to end', async () => {
    await asha.sendText(me, 'hello from Asha');
    await poll(() => rec.inbound.map((m) => m.text)).toContain('hello from Asha');
    expect(rec.inbound.find((m) => m.text === 'hello from Asha')).toMatchObject({
      chatId: '14155550100',
      senderPhone: '14155550100',
      senderLid: asha.lid,
      senderName: 'Asha',
      kind: 'text',
    });

    await link.send('msg-out-1', '+1 415 555 0100', { kind: 'text', text: 'hi Asha, your order shipped' });
    await poll(() => asha.texts()).toContain('hi Asha, your order shipped');
    const got = asha.received.find((m) => m.text === 'hi Asha, your order shipped');
    expect(got).toMatchObject({ id: 'msg-out-1', to: '14155550100@s.whatsapp.net', device: 0 });
    expect(got?.from).toBe(device);
    // Our own phone gets the copy every linked device sends it.
    expect(me.received.find((m) => m.id === 'msg-out-1')?.text).toBe('hi Asha, your order shipped');
  });

  it("a contact's revoke of its own message reaches the host as a change", async () => {
    const id = await asha.sendText(me, 'oops, wrong chat');
    await poll(() => rec.inbound.some((m) => m.id === id)).toBe(true);
    await asha.send(me, {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.REVOKE,
        key: { remoteJid: me.pnJid(), fromMe: true, id },
      },
    });
    await poll(() => rec.changes.find((c) => c.messageId === id)).toEqual({
      messageId: id,
      chatId: '14155550100',
      change: 'deleted',
      fromMe: false,
    });
  });

  it("a contact's votes on our poll are decrypted to option texts, the latest replacing the earlier", async () => {
    await link.send('poll-vote-1', '14155550100', {
      kind: 'poll',
      poll: { question: 'Toppings?', options: ['Cheese', 'Olives', 'Basil'], multiple: true },
    });
    await poll(() => asha.received.some((m) => m.id === 'poll-vote-1')).toBe(true);
    // The driver kept the poll's secret for its votes, for far longer than media.
    expect(kept.get('poll-vote-1')?.keep).toBe('poll');
    const received = must(
      asha.received.find((m) => m.id === 'poll-vote-1'),
      "an entry of asha.received where m.id === 'poll-vote-1'",
    );
    expect(received.message.messageContextInfo?.messageSecret?.length).toBe(32);

    await asha.votePoll(me, received, ['Olives', 'Cheese']);
    await poll(() => rec.votes.length).toBe(1);
    expect(rec.votes[0]).toMatchObject({
      pollId: 'poll-vote-1',
      chatId: '14155550100',
      voterPhone: '14155550100',
      voterLid: asha.lid,
      // In the poll's order, as texts.
      options: ['Cheese', 'Olives'],
    });
    // Addressed by phone number this time: the other pair of ids opens it.
    await asha.votePoll(me, received, ['Basil'], { addressing: 'pn' });
    await poll(() => rec.votes.length).toBe(2);
    expect(rec.votes[1]).toMatchObject({
      pollId: 'poll-vote-1',
      voterPhone: '14155550100',
      options: ['Basil'],
    });
    expect(must(rec.votes[1], 'rec.votes[1]').timestampMs).toBeGreaterThanOrEqual(
      must(rec.votes[0], 'rec.votes[0]').timestampMs,
    );
    // A withdrawn vote: no option.
    await asha.votePoll(me, received, []);
    await poll(() => rec.votes.length).toBe(3);
    expect(must(rec.votes[2], 'rec.votes[2]').options).toEqual([]);
    // A vote is not a message.
    expect(rec.inbound.filter((m) => m.kind === 'unknown')).toEqual([]);
  });

  it('a location, contact cards and a poll each way', async () => {
    const to = '+1 415 555 0100';
    await link.send('loc-out-1', to, {
      kind: 'location',
      location: { latitude: 12.9716, longitude: 77.5946, name: 'Shop', address: 'MG Road' },
    });
    const cards = [
      { name: 'Ravi', phones: ['919876543211'], org: 'Clinic' },
      { name: 'Meera', phones: ['919876543212'] },
    ];
    await link.send('card-out-1', to, { kind: 'contact', contacts: [must(cards[0], 'cards[0]')] });
    await link.send('cards-out-1', to, { kind: 'contact', contacts: cards });
    await link.send('poll-out-1', to, {
      kind: 'poll',
      poll: { question: 'Which day?', options: ['Mon', 'Tue'], multiple: false },
    });
    await poll(() => asha.received.map((m) => m.id)).toEqual(
      expect.arrayContaining(['loc-out-1', 'card-out-1', 'cards-out-1', 'poll-out-1']),
    );
    const got = (id: string) => asha.received.find((m) => m.id === id)?.message;
    expect(got('loc-out-1')?.locationMessage).toMatchObject({
      degreesLatitude: 12.9716,
      degreesLongitude: 77.5946,
      name: 'Shop',
      address: 'MG Road',
    });
    const one = got('card-out-1')?.contactMessage;
    expect(one?.displayName).toBe('Ravi');
    expect(fromVCard(one?.vcard ?? '')).toEqual(cards[0]);
    const many = got('cards-out-1')?.contactsArrayMessage?.contacts ?? [];
    expect(many.map((c) => fromVCard(c.vcard ?? ''))).toEqual(cards);
    const created = got('poll-out-1');
    const pollMessage =
      created?.pollCreationMessageV3 ?? created?.pollCreationMessage ?? created?.pollCreationMessageV2;
    expect(pollMessage?.name).toBe('Which day?');
    expect(pollMessage?.options?.map((o) => o.optionName)).toEqual(['Mon', 'Tue']);
    expect(pollMessage?.selectableOptionsCount).toBe(1);

    // And from the phone: each normalised with its data and summary.
    await asha.send(me, {
      locationMessage: { degreesLatitude: -33.92, degreesLongitude: 18.42, name: 'Beach' },
    });
    await asha.send(me, {
      contactMessage: { displayName: 'Ravi', vcard: toVCard({ name: 'Ravi', phones: ['919876543211'] }) },
    });
    await asha.send(me, {
      pollCreationMessageV3: {
        name: 'Lunch?',
        options: [{ optionName: 'Yes' }, { optionName: 'No' }],
        selectableOptionsCount: 1,
      },
    });
    await poll(() => rec.inbound.map((m) => m.kind)).toEqual(
      expect.arrayContaining(['location', 'contact', 'poll']),
    );
    expect(rec.inbound.find((m) => m.kind === 'location')).toMatchObject({
      text: '-33.92,18.42',
      location: { latitude: -33.92, longitude: 18.42, name: 'Beach' },
    });
    expect(rec.inbound.find((m) => m.kind === 'contact')).toMatchObject({
      text: 'Ravi',
      contacts: [{ name: 'Ravi', phones: ['919876543211'] }],
    });
    expect(rec.inbound.find((m) => m.kind === 'poll')).toMatchObject({
      text: 'Lunch?',
      poll: { question: 'Lunch?', options: ['Yes', 'No'], multiple: false },
    });
  });

  it('read receipts for received messages, voice notes played', async () => {
    const textId = await asha.sendText(me, 'read me');
    const voiceId = await asha.send(me, { audioMessage: { ptt: true, mimetype: 'audio/ogg; codecs=opus' } });
    const before = net.receipts.length;
    await link.read('14155550100', [{ id: textId }, { id: voiceId, voice: true }]);
    await poll(() => net.receipts.length - before).toBeGreaterThanOrEqual(2);
    const sent = net.receipts.slice(before).map(({ node }) => ({
      type: node.attrs.type,
      to: node.attrs.to,
      ids: [
        node.attrs.id,
        ...getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'item').map((i) => i.attrs.id),
      ],
    }));
    const read = sent.find((r) => r.type === 'read' || r.type === 'read-self');
    expect(read?.ids.sort()).toEqual([textId, voiceId].sort());
    expect(sent.find((r) => r.type === 'played')?.ids).toEqual([voiceId]);
  });

  it('checks numbers with a USync contact query: users of the network exist, others do not', async () => {
    expect(await link.checkNumbers(['14155550100', '447700900123'])).toEqual([
      { number: '14155550100', exists: true, jid: '14155550100@s.whatsapp.net' },
      { number: '447700900123', exists: false, jid: null },
    ]);
  });

  it('edits and revokes of our messages reach the peer as protocol messages', async () => {
    await link.send('chg-out-1', '14155550100', { kind: 'text', text: 'price is 800' });
    await link.edit('14155550100', 'chg-out-1', 'price is 750');
    await link.revoke('14155550100', 'chg-out-1');
    const protocol = () =>
      asha.received.flatMap((m) => (m.message.protocolMessage ? [m.message.protocolMessage] : []));
    await poll(() => protocol().filter((p) => p.key?.id === 'chg-out-1').length).toBe(2);
    const [edit, revoke] = protocol().filter((p) => p.key?.id === 'chg-out-1');
    expect(edit?.type).toBe(proto.Message.ProtocolMessage.Type.MESSAGE_EDIT);
    const edited = edit?.editedMessage;
    expect(edited?.conversation ?? edited?.extendedTextMessage?.text).toBe('price is 750');
    expect(revoke?.type).toBe(proto.Message.ProtocolMessage.Type.REVOKE);
  });

  it('a message the business types on its own phone reaches onOwnMessage in the customer’s chat, not onInbound', async () => {
    const id = await me.sendFromMyPhone(asha, 'Ravi here, I will help you');
    await poll(() => rec.own.map((m) => m.id)).toContain(id);
    expect(rec.own.find((m) => m.id === id)).toMatchObject({
      chatId: '14155550100',
      kind: 'text',
      text: 'Ravi here, I will help you',
    });
    expect(rec.inbound.map((m) => m.id)).not.toContain(id);
    // Our own send of the test before is echoed by Baileys as an own message: not reported.
    expect(rec.own.map((m) => m.id)).not.toContain('msg-out-1');
  });

  it("the peer's delivery and read receipts reach onReceipt", async () => {
    // A receipt landing within Baileys' 100 ms buffer of its own sent message is folded into that
    // message's `append` upsert instead of a messages.update; the phone re-sends until reported.
    await poll(() => {
      asha.sendReceipt(me, ['msg-out-1']);
      return rec.receipts;
    }).toContainEqual(['msg-out-1', 'delivered']);
    asha.sendReceipt(me, ['msg-out-1'], 'read');
    await poll(() => rec.receipts).toContainEqual(['msg-out-1', 'read']);
    // `sent` is the host's, reported when the send resolves: the driver reports no ack of its own.
    expect(rec.receipts.filter(([id]) => id === 'msg-out-1').map(([, status]) => status)).not.toContain(
      'sent',
    );
  });

  it("the network's error ack for a sent message rejects the send with its code, reported once", async () => {
    net.failNextSend('479', asha);
    await expect(
      link.send('msg-out-2', '+1 415 555 0100', { kind: 'text', text: 'this one is refused' }),
    ).rejects.toThrow(new SendRefusedError('the network refused the message (error 479)'));
    // The send's rejection is the one report: the same refusal never also comes as onSendFailed.
    await new Promise((r) => setTimeout(r, 500));
    expect(rec.failures).toEqual([]);
    expect(rec.receipts.filter(([id]) => id === 'msg-out-2')).toEqual([]);
  });

  it.each([
    [515, { kind: 'restart', code: 515 }],
    [408, { kind: 'transient', code: 408, reason: expect.stringContaining('(408)') }],
    [428, { kind: 'transient', code: 428, reason: expect.stringContaining('(428)') }],
    [500, { kind: 'transient', code: 500, reason: expect.stringContaining('(500)') }],
    [503, { kind: 'transient', code: 503, reason: expect.stringContaining('(503)') }],
    [440, { kind: 'replaced', code: 440, reason: expect.stringContaining('(440)') }],
    [401, { kind: 'logged_out', code: 401, reason: expect.stringContaining('(401)') }],
  ] as const)('the network ends the connection with %i → %o', async (code, end) => {
    net.disconnect(device, code);
    await poll(() => rec.closes).toEqual([end]);
    await poll(() => device.link).toBeUndefined();
    rec = recorder();
    link = await driver().connect(request, rec.events);
    await poll(() => rec.opens).toEqual(['919876543210']);
  });

  it.each([
    [405, 'refused'],
    [403, 'fatal'],
  ] as const)('a login the network refuses with %i → %s', async (code, kind) => {
    await link.close();
    await poll(() => device.link).toBeUndefined();
    net.refuseNextLogin(code);
    rec = recorder();
    await driver().connect(request, rec.events);
    await poll(() => rec.closes).toEqual([{ kind, code, reason: expect.stringContaining(`(${code})`) }]);
    rec = recorder();
    link = await driver().connect(request, rec.events);
    await poll(() => rec.opens).toEqual(['919876543210']);
  });
});

describe('linking that does not complete', () => {
  it('a QR that runs out of refs ends the link as a linking timeout', async () => {
    const r = recorder();
    net.qrRefs = 0;
    try {
      await driver().connect(
        { tenantId: 't1', sessionId: `s-${randomBytes(4).toString('hex')}`, method: 'qr' },
        r.events,
      );
      await poll(() => r.closes).toEqual([
        { kind: 'refused', code: 408, reason: expect.stringMatching(/^linking timed out/) },
      ]);
    } finally {
      net.qrRefs = undefined;
    }
  });
});

describe('linking by pairing code', () => {
  it('the code typed on the phone links the device; after the restart it opens', async () => {
    const owner = net.addUser({ phone: '447700900123', name: 'Bakery' });
    const request = {
      tenantId: 't1',
      sessionId: `s-${randomBytes(4).toString('hex')}`,
      method: 'phone' as const,
      phoneNumber: '+44 7700 900123',
    };
    const linking = recorder();
    const first = await driver().connect(request, linking.events);
    await poll(() => linking.codes.length).toBe(1);
    expect(linking.qrs).toEqual([]);
    await owner.enterPairingCode(linking.codes[0] ?? '');
    await poll(() => linking.closes).toEqual([{ kind: 'restart', code: 515 }]);
    await first.close();

    const r = recorder();
    const link = await driver().connect(request, r.events);
    await poll(() => r.opens).toEqual(['447700900123']);
    await link.close();
  });
});

describe('a passkey-gated account (the network asks for a passkey at linking)', () => {
  const gated = (phone: string) => {
    const user = net.addUser({ phone, name: 'Gated' });
    user.passkeyGated = true;
    return user;
  };
  const passkeyEnd = { kind: 'fatal', reason: expect.stringMatching(/^PASSKEY_REQUIRED: /) };

  it('a scanned QR ends linking for good with PASSKEY_REQUIRED, not another QR', async () => {
    const owner = gated('447700900201');
    const r = recorder();
    const link = await driver().connect(
      { tenantId: 't1', sessionId: `s-${randomBytes(4).toString('hex')}`, method: 'qr' },
      r.events,
    );
    await poll(() => r.qrs.length).toBe(1);
    await expect(owner.scanQr(r.qrs[0] ?? '')).rejects.toThrow(/passkey/);
    await poll(() => r.closes).toEqual([passkeyEnd]);
    net.refreshQr(); // new refs would be a new QR on a link still waiting
    await new Promise((res) => setTimeout(res, 500));
    expect(r.qrs).toHaveLength(1);
    expect(owner.companions.size).toBe(0);
    await link.close();
  });

  it('so does a pairing code typed on the phone', async () => {
    const owner = gated('447700900202');
    const r = recorder();
    const link = await driver().connect(
      {
        tenantId: 't1',
        sessionId: `s-${randomBytes(4).toString('hex')}`,
        method: 'phone',
        phoneNumber: `+${owner.number}`,
      },
      r.events,
    );
    await poll(() => r.codes.length).toBe(1);
    await expect(owner.enterPairingCode(r.codes[0] ?? '')).rejects.toThrow(/passkey/);
    await poll(() => r.closes).toEqual([passkeyEnd]);
    expect(owner.companions.size).toBe(0);
    await link.close();
  });
});
