import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActionList,
  Body,
  Contacts,
  Email,
  Footer,
  Header,
  Interactive,
  ListSection,
  Location,
  Name,
  Organization,
  Phone,
  Row,
  Sticker,
} from 'whatsapp-api-js/messages';
import { fromVCard } from '#shared/messages/vcard';
import { toSticker } from '../../connection-host/sticker.ts';
import { newTenant, readySession } from '../support/client.ts';
import { cloudClient } from '../support/cloud-client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { DELIVERY_DAY_SECTIONS } from '../support/message-fixtures.ts';
import { must } from '../support/must.ts';
import { outboxWith } from '../support/outbox.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const photo = fixtures.png(30);
let webp: Buffer;
let server: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  webp = await sharp(photo.bytes).webp().toBuffer();
  server = await mediaServer({ 'sticker.webp': { bytes: webp, mimetype: 'image/webp', sha256: sha(webp) } });
});
afterAll(() => server.close());

const idOf = (r: unknown) => {
  if (!r || typeof r !== 'object' || !('messages' in r)) throw new Error(`not sent: ${JSON.stringify(r)}`);
  return must(
    (r as { messages: Array<{ id: string }> }).messages[0],
    '(r as { messages: Array<{ id: string }> }).messages[0]',
  ).id.replace(/^wamid\./, '');
};

describe('Cloud API message kinds', () => {
  it('location, contacts, stickers (link and id) and list messages, sent by whatsapp-api-js, reach the network as the native kinds', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = cloudClient(t.token);
    const to = '919876543210';

    const location = await client.sendMessage(s.mobid, to, new Location(77.5946, 12.9716, 'Shop', 'MG Road'));
    const contacts = await client.sendMessage(
      s.mobid,
      to,
      new Contacts(
        [
          new Name('Asha Rao', 'Asha', 'Rao'),
          new Phone('+91 98765 43211', 'CELL', '919876543211'),
          new Email('asha@example.com', 'WORK'),
          new Organization('Clinic'),
        ],
        [new Name('Bob'), new Phone('+1 415 555 0100', 'HOME')],
      ),
    );
    const byLink = await client.sendMessage(s.mobid, to, new Sticker(server.url('sticker.webp')));
    const form = new FormData();
    form.append('file', new Blob([photo.bytes], { type: 'image/png' }), 'sticker.png');
    const uploaded = (await client.uploadMedia(s.mobid, form)) as { id: string };
    expect(uploaded.id).toMatch(/^\d{15}$/);
    const byId = await client.sendMessage(s.mobid, to, new Sticker(uploaded.id, true));
    const list = await client.sendMessage(
      s.mobid,
      to,
      new Interactive(
        new ActionList(
          'Pick a day',
          new ListSection(
            'This week',
            new Row('day-mon', 'Monday', 'after 5 pm'),
            new Row('day-tue', 'Tuesday'),
          ),
          new ListSection('Later', new Row('day-next', 'Next week')),
        ),
        new Body('When shall we deliver?'),
        new Header('Delivery'),
        new Footer('Reply any time'),
      ),
    );
    const ids = [location, contacts, byLink, byId, list].map(idOf);

    const out = await outboxWith(s.sessionId, ids.length);
    expect(out.map((m) => m.id)).toEqual(ids);
    const [place, cards, linked, uploadedSticker, listed] = out;
    expect(place).toMatchObject({
      type: 'location',
      location: { latitude: 12.9716, longitude: 77.5946, name: 'Shop', address: 'MG Road' },
    });
    expect(must(cards?.contacts, 'the contact cards sent').map((c) => fromVCard(c.vcard))).toEqual([
      { name: 'Asha Rao', phones: ['919876543211'], email: 'asha@example.com', org: 'Clinic' },
      { name: 'Bob', phones: ['14155550100'] },
    ]);
    expect(linked).toMatchObject({ type: 'sticker', mimetype: 'image/webp', sha256: sha(webp) });
    expect(uploadedSticker).toMatchObject({
      type: 'sticker',
      mimetype: 'image/webp',
      sha256: sha(await toSticker(new Uint8Array(photo.bytes))),
    });
    expect(listed).toMatchObject({
      type: 'list',
      list: {
        body: '*Delivery*\n\nWhen shall we deliver?\n\nReply any time',
        button: 'Pick a day',
        sections: DELIVERY_DAY_SECTIONS,
      },
    });
  });

  it('refuses shapes it cannot send with a 400 in the Cloud error shape, naming the field', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const post = (body: Record<string, unknown>) =>
      t.api.post(`/api/messages/${s.mobid}/messages`, {
        messaging_product: 'whatsapp',
        to: '919876543210',
        ...body,
      });
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    const list = (action: Record<string, unknown>) => ({
      type: 'interactive',
      interactive: { type: 'list', body: { text: 'Pick' }, action },
    });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { type: 'interactive', interactive: { type: 'flow', body: { text: 'x' }, action: {} } },
        /^interactive\.type: interactive type flow is not supported/,
      ],
      [list({ sections: [{ rows: rows(2) }] }), /^interactive\.action\.button: /],
      [list({ button: 'Open' }), /^interactive\.action\.sections: /],
      [
        list({ button: 'Open', sections: [{ title: 'All', rows: rows(11) }] }),
        /^interactive\.action\.sections/,
      ],
      [
        list({
          button: 'Open',
          sections: [{ rows: rows(1) }, { title: 'B', rows: [{ id: 'z', title: 'Z' }] }],
        }),
        /^interactive\.action\.sections\.0\.title: /,
      ],
      [
        {
          type: 'contacts',
          contacts: [{ name: { formatted_name: 'No Number' }, phones: [{ phone: 'ask me' }] }],
        },
        /^contacts\.0\.phones: /,
      ],
      [{ type: 'location', location: { latitude: 91, longitude: 0 } }, /^location\.latitude: /],
      [{ type: 'sticker', sticker: {} }, /^sticker\.link: /],
      [{ type: 'sticker', sticker: { id: '123456789012345' } }, /.+/],
    ];
    for (const [body, details] of cases) {
      const r = await post(body);
      const expectedStatus = body.type === 'sticker' && (body.sticker as { id?: string }).id ? 404 : 400;
      expect(r.status, JSON.stringify(body)).toBe(expectedStatus);
      expect(r.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
      expect(r.body.error.error_data.details, JSON.stringify(body)).toMatch(details);
    }
    expect(await outboxWith(s.sessionId, 0)).toEqual([]);
  });
});
