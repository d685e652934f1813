import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chatbotTurnKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { launchBrowser } from '../support/browser.ts';
import { chatbotTurnDone } from '../support/chatbot.ts';
import { api, baseUrl, newTenant, readySession, simInbound } from '../support/client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { must } from '../support/must.ts';
import { outbox, outboxWith } from '../support/outbox.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/** The screenshots docs/console.md shows, written by this test (never by hand). */
const SHOTS = resolve(import.meta.dirname, '../../docs/console');
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type Size = keyof typeof SIZES;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
}, 60_000);
// Closing the browser closes its contexts (Chromium runs as one process here: a context closed on its
// own can take the browser with it).
const closing: Array<() => Promise<void>> = [];
afterAll(async () => {
  await browser?.close();
  for (const close of closing) await close();
});

async function open(size: Size): Promise<Page> {
  const context = await browser.newContext({ viewport: SIZES[size], acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/console`);
  return page;
}

const shot = (page: Page, name: string, size: Size) =>
  page.screenshot({ path: join(SHOTS, `${name}-${size}.png`), fullPage: true });

async function signIn(page: Page, apiKey: string) {
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Sessions' }).waitFor();
}

async function visit(page: Page, name: string) {
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

describe('the web console in a real browser', () => {
  it('signs in, links a session, shows an inbound message live, replies, runs a rule, redelivers a webhook, exports; a wrong key shows the error', async () => {
    const tenant = await newTenant('console');
    const desktop = await open('desktop');

    // A wrong key: the API's own message, shown as it is.
    const refused = await api().post('/api/auth/token', { apiKey: 'wsm_not-a-real-key' });
    expect(refused.status).toBe(401);
    await desktop.getByLabel('API key').fill('wsm_not-a-real-key');
    await desktop.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => desktop.getByRole('alert').textContent()).toBe(refused.body.error.message);
    await shot(desktop, 'sign-in', 'desktop');

    await signIn(desktop, tenant.apiKey);
    // The token is in this tab's session storage and never in the address.
    expect(await desktop.evaluate("sessionStorage.getItem('console.token')")).toMatch(/^ey/);
    expect(desktop.url()).not.toContain('ey');
    // A tenant's key does not see the admin's page.
    expect(await desktop.getByRole('link', { name: 'Tenants' }).count()).toBe(0);

    // Webhooks: a receiver that refuses for good (410: no retry) until it is healthy again.
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 410));
    closing.push(receiver.close);
    await visit(desktop, 'Webhooks');
    await desktop.getByLabel('Webhook URL').fill(receiver.url);
    await desktop.getByLabel(/Approved domains/).fill('127.0.0.1');
    await desktop.getByRole('button', { name: 'Save webhook' }).click();
    await desktop.getByRole('status').getByText('Saved.').waitFor();
    await visit(desktop, 'Sessions');

    // A new session shows its QR code; the simulated phone is held (it would scan within 300 ms) until
    // the test has seen the image, then scans it, and the list shows the session READY by itself.
    const created = desktop.waitForResponse(
      (r) => r.url().endsWith('/api/sessions') && r.request().method() === 'POST',
    );
    await desktop.getByLabel('Session name').fill('Front dsk');
    await desktop.getByRole('button', { name: 'New session' }).click();
    const sessionId = ((await (await created).json()) as { session: { sessionId: string } }).session
      .sessionId;
    expect((await api().post('/_sim/linking/hold', { sessionId })).status).toBe(200);
    const qr = desktop.getByRole('img', { name: 'QR code' });
    await qr.waitFor({ timeout: 10_000 });
    // A real PNG drawn by the browser, not a broken image.
    await expect
      .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await shot(desktop, 'sessions-qr', 'desktop');
    expect((await api().post('/_sim/scan', { sessionId })).status).toBe(200);
    const row = desktop.locator(`tr[data-session="${sessionId}"]`);
    await row.getByText('READY').waitFor({ timeout: 10_000 });
    await desktop.locator('.linking').getByText('READY').waitFor();

    // Rename (PATCH /api/sessions/{id}) and the health and status history of the session.
    await row.getByRole('button', { name: 'Health and history of Front dsk' }).click();
    const detail = desktop.getByRole('region', { name: 'Session Front dsk' });
    await detail.getByLabel('New name').fill('Front desk');
    await detail.getByRole('button', { name: 'Rename' }).click();
    await row.getByRole('cell', { name: 'Front desk', exact: true }).waitFor();
    expect((await tenant.api.get(`/api/sessions/${sessionId}`)).body.session.name).toBe('Front desk');
    const history = desktop.getByRole('table', { name: 'Status history' });
    await history.getByText('READY', { exact: true }).waitFor({ timeout: 10_000 });
    await history.getByText('QR_READY', { exact: true }).waitFor({ timeout: 10_000 });
    const stored = await tenant.api.get(`/api/sessions/${sessionId}/history`);
    const statuses = stored.body.changes.map((c: { status: string }) => c.status);
    expect(statuses[0]).toBe('READY');
    expect(statuses).toContain('QR_READY');
    await shot(desktop, 'sessions', 'desktop');

    // The Inbox follows the tenant stream: a message from a customer appears without a reload.
    await visit(desktop, 'Inbox');
    // The badge, exactly: "Live updates" itself contains "live".
    await desktop.locator('.muted', { hasText: 'Live updates' }).getByText('live', { exact: true }).waitFor();
    await simInbound({
      sessionId,
      from: '15550004444',
      name: 'Asha',
      text: 'Hello, is the clinic open today?',
    });
    const chat = desktop.getByRole('button', { name: /Asha/ });
    // Live, without a reload: a stream may learn of a session created in another process up to 5 s
    // late (docs/data-model.md, "Reading the feed live"), and the machine may be busy.
    await chat.waitFor({ timeout: 30_000 });
    await chat.click();
    await desktop
      .getByRole('list', { name: 'Messages' })
      .getByText('Hello, is the clinic open today?')
      .waitFor();

    // A reply goes out through the session into the network.
    await desktop.getByLabel('Reply').fill('Yes, until 6 pm.');
    await desktop.getByRole('button', { name: 'Send' }).click();
    const sent = await outboxWith(sessionId, 1, 15_000);
    expect(sent.map((m) => m.text)).toContain('Yes, until 6 pm.');
    await desktop.getByRole('list', { name: 'Messages' }).getByText('Yes, until 6 pm.').waitFor();
    await shot(desktop, 'inbox', 'desktop');

    // Chatbot: a rule added here answers the customer through the session.
    await visit(desktop, 'Chatbot');
    await desktop.getByRole('button', { name: 'Enable the chatbot for Front desk' }).click();
    await desktop.locator('li', { hasText: 'Front desk' }).getByText('on', { exact: true }).waitFor();
    // Bad input: a pattern the regex engine refuses is answered with the API's message, shown as it is.
    const badRule = {
      mobid: '*',
      triggerType: 'regex',
      keyword: '(unclosed',
      replyType: 'text',
      response: 'x',
    };
    const refusedRule = await tenant.api.post('/api/v1/chatbot/rules', badRule);
    expect(refusedRule.status).toBe(400);
    await desktop.getByLabel('Trigger').selectOption('regex');
    await desktop.getByLabel('Keyword').fill('(unclosed');
    await desktop.getByLabel('Reply text').fill('x');
    await desktop.getByRole('button', { name: 'Add rule' }).click();
    await expect
      .poll(() => desktop.locator('form').getByRole('alert').textContent())
      .toBe(refusedRule.body.error.message);
    await desktop.getByLabel('Trigger').selectOption('contains');
    await desktop.getByLabel('Keyword').fill('opening hours');
    await desktop.getByLabel('Reply text').fill('We open at 9 am.');
    await desktop.getByRole('button', { name: 'Add rule' }).click();
    await desktop.getByRole('cell', { name: 'We open at 9 am.' }).waitFor();
    // Try it names the rule that would answer, and sends nothing.
    await desktop.getByLabel('Try it', { exact: true }).fill('When are your opening hours?');
    await desktop.getByRole('button', { name: 'Try', exact: true }).click();
    const dryRun = desktop.getByRole('definition').filter({ hasText: 'contains “opening hours”' });
    await dryRun.waitFor();
    await desktop.locator('.try-result').getByText('We open at 9 am.').waitFor();
    expect((await outbox(sessionId)).length).toBe(1);
    await simInbound({ sessionId, from: '15550004444', name: 'Asha', text: 'What are your opening hours?' });
    const answered = await outboxWith(sessionId, 2, 15_000);
    expect(answered.map((m) => m.text)).toContain('We open at 9 am.');
    await shot(desktop, 'chatbot', 'desktop');

    // Take over the chat in the Inbox: the rule that just answered stays silent there, until handed back.
    await visit(desktop, 'Inbox');
    await desktop.getByRole('button', { name: /Asha/ }).click();
    await desktop.getByRole('button', { name: 'Take over' }).click();
    await desktop.getByRole('button', { name: 'Hand back' }).waitFor();
    await desktop.getByText(/The bot stays silent here until .+ \(by console\)/).waitFor();
    const quiet = await simInbound({
      sessionId,
      from: '15550004444',
      name: 'Asha',
      text: 'opening hours again?',
    });
    await chatbotTurnDone(tenant.id, sessionId, quiet);
    const turn = await dataTable.get<{ outcome: string }>(chatbotTurnKey(tenant.id, sessionId, quiet), true);
    expect(turn?.outcome).toBe('human takeover');
    expect((await outbox(sessionId)).length).toBe(2);
    await desktop.getByRole('list', { name: 'Messages' }).getByText('opening hours again?').waitFor();
    await shot(desktop, 'inbox-takeover', 'desktop');
    await desktop.getByRole('button', { name: 'Hand back' }).click();
    await desktop.getByRole('button', { name: 'Take over' }).waitFor();
    await simInbound({
      sessionId,
      from: '15550004444',
      name: 'Asha',
      text: 'and your opening hours tomorrow?',
    });
    expect((await outboxWith(sessionId, 3, 15_000)).at(-1)?.text).toBe('We open at 9 am.');

    // Webhooks: the refused deliveries are in the log; Redeliver sends one again, now accepted.
    await visit(desktop, 'Webhooks');
    const failed = desktop.locator('tr[data-delivery]', { hasText: 'failed' }).first();
    await failed.waitFor({ timeout: 10_000 });
    const deliveryId = must(
      await failed.getAttribute('data-delivery'),
      "(await failed.getAttribute('data-delivery'))",
    );
    healthy = true;
    await failed.getByRole('button', { name: 'Redeliver' }).click();
    await desktop
      .locator(`tr[data-delivery="${deliveryId}"]`)
      .getByText('delivered')
      .waitFor({ timeout: 15_000 });
    expect(receiver.requests.some((r) => r.status === 200)).toBe(true);
    // Its attempts: the refused one (410, failed) and the redelivered one (200, delivered).
    await desktop.getByRole('button', { name: new RegExp(`^Attempts of .+ ${deliveryId}$`) }).click();
    const attempts = desktop.getByRole('table', { name: `Attempts of ${deliveryId}` });
    await attempts.getByRole('cell', { name: '410' }).waitFor();
    await attempts.getByRole('cell', { name: '200' }).waitFor();
    expect(await attempts.locator('tbody tr').count()).toBe(2);
    // Filters: by event and status, as the API filters (the same query answers the same rows).
    const event = must(
      await desktop.locator(`tr[data-delivery="${deliveryId}"] td`).first().textContent(),
      `the event cell of delivery ${deliveryId}`,
    );
    const filters = desktop.getByRole('group', { name: 'Filters' });
    await filters.getByLabel(/^Event/).selectOption(event);
    await filters.getByLabel(/^Status/).selectOption('delivered');
    const filtered = (
      await tenant.api.get(`/api/webhook/deliveries?status=delivered&event=${event}`)
    ).body.deliveries.map((d: { id: string }) => d.id);
    expect(filtered).toContain(deliveryId);
    await expect
      .poll(() =>
        desktop
          .locator('tr[data-delivery]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-delivery'))),
      )
      .toEqual(filtered);
    await shot(desktop, 'webhooks', 'desktop');

    // Exports: the contacts CSV is downloaded, with the customer in it.
    await visit(desktop, 'Exports');
    const [download] = await Promise.all([
      desktop.waitForEvent('download'),
      desktop.getByRole('button', { name: 'Download contacts CSV' }).click(),
    ]);
    const csv = readFileSync(must(await download.path(), '(await download.path())'), 'utf8');
    expect(csv).toContain('phone_number');
    expect(csv).toContain('15550004444');
    await shot(desktop, 'exports', 'desktop');

    await visit(desktop, 'Usage');
    await desktop.getByRole('cell', { name: 'Front desk' }).waitFor();
    // Usage over time: today's bucket counts the 1 reply sent from the Inbox, and of the customer's 4
    // messages at least the first (a day's `received` is written at most once a minute of message
    // time, with what was counted meanwhile: docs/messaging.md, "Usage over time"); the chart's
    // accessible name gives the same totals as the API.
    const daily = (await tenant.api.get('/api/sessions/usage/daily?days=14')).body;
    expect(daily.days).toHaveLength(14);
    const today = daily.sessions.find((s: { sessionId: string }) => s.sessionId === sessionId).days.at(-1);
    expect(today.sent).toBe(1);
    expect(today.received).toBeGreaterThanOrEqual(1);
    expect(today.received).toBeLessThanOrEqual(4);
    const chart = desktop.getByRole('img', { name: /^Messages per day, Front desk/ });
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toContain(`received ${today.received}, sent 1, bot replies ${today.botReplies}`);
    expect(await chart.locator('rect.bar').count()).toBeGreaterThan(0);
    await desktop.getByRole('img', { name: /^AI work per day, Front desk/ }).waitFor();
    await shot(desktop, 'usage', 'desktop');

    // The same screens on a phone.
    const phone = await open('phone');
    await shot(phone, 'sign-in', 'phone');
    await signIn(phone, tenant.apiKey);
    for (const name of ['Sessions', 'Inbox', 'Chatbot', 'Webhooks', 'Usage', 'Exports']) {
      await visit(phone, name);
      // Each screen's data is on it before the picture is taken.
      if (name === 'Sessions') await phone.getByRole('cell', { name: 'Front desk', exact: true }).waitFor();
      if (name === 'Inbox') {
        await phone.getByRole('button', { name: /Asha/ }).click();
        await phone.getByRole('list', { name: 'Messages' }).getByText('Yes, until 6 pm.').waitFor();
      }
      if (name === 'Chatbot') await phone.getByRole('cell', { name: 'We open at 9 am.' }).waitFor();
      if (name === 'Webhooks') await phone.locator('tr[data-delivery]').first().waitFor();
      if (name === 'Usage') await phone.getByRole('img', { name: /^Messages per day, Front desk/ }).waitFor();
      await shot(phone, name.toLowerCase(), 'phone');
    }
  }, 180_000);

  it('shows media in the Inbox (an image inline with its OCR text, a voice note as a link with its transcription), sends a file reply, shows the delivery ticks', async () => {
    const tenant = await newTenant('console-media');
    const session = await readySession(tenant.api, 'Reception');
    const sessionId = session.sessionId as string;
    // An image of text, drawn here so its OCR text is known; a voice note the fake speech provider says.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="200"><rect width="100%" height="100%" fill="white"/>
      <text x="30" y="130" font-family="DejaVu Sans, sans-serif" font-size="80" fill="black">INVOICE 4521</text></svg>`;
    const ogg = fixtures.ogg(512);
    const media = await mediaServer({
      'receipt.png': {
        bytes: await sharp(Buffer.from(svg)).png().toBuffer(),
        mimetype: 'image/png',
        sha256: '',
      },
      'said.ogg': { ...ogg, bytes: Buffer.concat([ogg.bytes, Buffer.from('SAY:see you at ten;', 'utf8')]) },
    });
    closing.push(media.close);
    const from = '15550007777';
    await simInbound({
      sessionId,
      from,
      name: 'Ravi',
      type: 'image',
      mediaUrl: media.url('receipt.png'),
      mimetype: 'image/png',
    });
    await simInbound({
      sessionId,
      from,
      name: 'Ravi',
      type: 'voice',
      mediaUrl: media.url('said.ogg'),
      mimetype: 'audio/ogg',
    });

    const page = await open('desktop');
    await signIn(page, tenant.apiKey);
    await visit(page, 'Inbox');
    await page.getByRole('button', { name: /Ravi/ }).click({ timeout: 90_000 });
    const messages = page.getByRole('list', { name: 'Messages' });
    // The image inline, drawn from the bytes the API served with the token; its OCR text beside it.
    const image = messages.getByRole('img', { name: 'Image' });
    await image.waitFor({ timeout: 90_000 });
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(700);
    await messages.getByText(/INVOICE\s*4521/).waitFor({ timeout: 30_000 });
    // The voice note as a labelled link to its file, with its transcription.
    const voice = messages.getByRole('link', { name: /Voice note/ });
    await voice.waitFor({ timeout: 90_000 });
    expect(await voice.getAttribute('href')).toContain('/links/');
    await messages.getByText('see you at ten').waitFor({ timeout: 30_000 });

    // A file reply goes through upload-send, with the typed text as its caption.
    await page.getByLabel('Reply').fill('Your receipt, stamped');
    await page.getByLabel('Attach a file').setInputFiles({
      name: 'receipt-stamped.pdf',
      mimeType: 'application/pdf',
      buffer: fixtures.pdf(1024).bytes,
    });
    await page.getByRole('button', { name: 'Send' }).click();
    const [sent] = await outboxWith(sessionId, 1, 15_000);
    expect(sent).toMatchObject({ fileName: 'receipt-stamped.pdf', caption: 'Your receipt, stamped' });
    expect(await page.getByLabel('Attach a file').inputValue()).toBe('');
    // Delivery ticks follow the network's receipts: the status is the ticks' accessible name.
    await messages.getByRole('img', { name: /^(sent|delivered)$/ }).waitFor({ timeout: 15_000 });
    expect(
      (await api().post('/_sim/receipt', { sessionId, messageId: must(sent, 'sent').id, status: 'read' }))
        .status,
    ).toBe(200);
    await messages.getByRole('img', { name: 'read' }).waitFor({ timeout: 15_000 });
    await shot(page, 'inbox-media', 'desktop');

    // Exports: the tenant's own groups as CSV (POST /api/sessions/groups/export), another tenant sees none.
    const group = await api().post('/_sim/groups', {
      sessionId,
      subject: 'Reception staff',
      participants: [{ phone: '919811400051', name: 'Meera' }],
    });
    expect(group.status).toBe(200);
    await simInbound({
      sessionId,
      from: '919811400051',
      name: 'Meera',
      text: 'shift swap?',
      groupId: group.body.groupId,
    });
    await expect
      .poll(
        async () =>
          (await tenant.api.post('/api/sessions/groups/export', { format: 'json' })).body.totalGroups,
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    const stranger = await newTenant('console-stranger');
    expect(
      (await stranger.api.post('/api/sessions/groups/export', { format: 'json' })).body.totalGroups,
    ).toBe(0);
    await visit(page, 'Exports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download groups CSV' }).click(),
    ]);
    const csv = readFileSync(must(await download.path(), '(await download.path())'), 'utf8');
    expect(csv).toContain('GroupName,GroupId,MembersCount,Members,TotalMessagesInGroup,LastMsgOn');
    expect(csv).toContain('Reception staff');
    expect(csv).toMatch(/Meera \(\+91[\d ]+\)/);
  }, 150_000);

  it("edits the chatbot: a brain checked before saving (bad JSON and the API's refusal shown), a prompt, a template, intents and their phrases, the switches", async () => {
    const tenant = await newTenant('console-bot');
    const session = await readySession(tenant.api, 'Clinic line');
    const page = await open('desktop');
    await signIn(page, tenant.apiKey);
    await visit(page, 'Chatbot');
    const brainForm = page.getByRole('form', { name: 'Brain editor' });

    // Not JSON: refused here, nothing sent.
    await page.getByLabel('Brain (JSON)').fill('{"business": ');
    await page.getByRole('button', { name: 'Save brain' }).click();
    await brainForm
      .getByRole('alert')
      .getByText(/The brain is not valid JSON/)
      .waitFor();
    expect((await tenant.api.get('/api/v1/chatbot/brain')).status).toBe(404);
    // JSON the API refuses: its own message, as it worded it.
    const invalid = { business: { tagline: 'no name' } };
    const refused = await tenant.api.post('/api/v1/chatbot/brain', {
      sessionKey: 'global',
      brainData: invalid,
    });
    expect(refused.status).toBe(400);
    await page.getByLabel('Brain (JSON)').fill(JSON.stringify(invalid));
    await page.getByRole('button', { name: 'Save brain' }).click();
    await expect.poll(() => brainForm.getByRole('alert').textContent()).toBe(refused.body.error.message);
    // A valid one is saved.
    await page.getByLabel('Brain (JSON)').fill(JSON.stringify({ business: { name: 'Sunrise Clinic' } }));
    await page.getByRole('button', { name: 'Save brain' }).click();
    await page
      .getByRole('status')
      .getByText(/Brain saved/)
      .waitFor();
    expect((await tenant.api.get('/api/v1/chatbot/brain')).body.brain.business.name).toBe('Sunrise Clinic');
    await page.getByLabel('Prompt', { exact: true }).fill('You are the front desk of Sunrise Clinic.');
    await page.getByRole('button', { name: 'Save prompt' }).click();
    await page
      .getByRole('status')
      .getByText(/Prompt saved/)
      .waitFor();
    expect((await tenant.api.get('/api/v1/chatbot/prompt')).body.prompt).toBe(
      'You are the front desk of Sunrise Clinic.',
    );

    // A template replaces the knowledge (after the page asks): its brain shows in the editor, its intents in the list.
    const template = (await api().get('/api/v1/chatbot/templates/clinic')).body;
    page.once('dialog', (d) => d.accept());
    await page.getByLabel('Template').selectOption('clinic');
    await page.getByRole('button', { name: 'Apply template' }).click();
    await page.getByRole('status').getByText('The clinic template is in place.').waitFor();
    const firstIntent = template.intents.intents[0].id as string;
    const intents = page.getByRole('list', { name: 'Intents' });
    await intents.getByText(firstIntent, { exact: true }).waitFor();
    await expect
      .poll(() => page.getByLabel('Brain (JSON)').inputValue())
      .toContain(template.brain.business.name);

    // Intents: a new one with its first phrase, a second phrase added, the first deleted.
    await page.getByLabel('Intent id').fill('parking');
    await page.getByLabel('First phrase').fill('where can I park');
    await page.getByLabel('Its reply').fill('Behind the clinic, free for patients.');
    await page.getByRole('button', { name: 'Add intent' }).click();
    const parking = page.getByRole('list', { name: 'Phrases of parking' });
    await parking.getByText('where can I park').waitFor();
    await page.getByLabel('New phrase for parking').fill('is there parking');
    await page.getByRole('button', { name: 'Add phrase to parking' }).click();
    await parking.getByText('is there parking').waitFor();
    await page.getByRole('button', { name: 'Delete phrase where can I park' }).click();
    await expect.poll(() => parking.getByText('where can I park').count()).toBe(0);
    const stored = (await tenant.api.get('/api/v1/chatbot/intents')).body.intents.intents as Array<{
      id: string;
      training_phrases: Record<string, string[]>;
    }>;
    expect(stored.find((i) => i.id === 'parking')?.training_phrases.en).toEqual(['is there parking']);
    expect(stored.some((i) => i.id === firstIntent)).toBe(true);

    // Switches: voice replies and the pure extractor, per session, as the API then reports them.
    // Each box saves when clicked; it shows what the API then reports.
    await page.getByLabel('Voice replies for Clinic line').click();
    await expect.poll(() => page.getByLabel('Voice replies for Clinic line').isChecked()).toBe(true);
    await page.getByLabel('Pure extractor for Clinic line').click();
    await expect
      .poll(async () => {
        const sw = (await tenant.api.get(`/api/v1/chatbot/switches?sessionKey=${session.mobid}`)).body;
        return [sw.voiceReplies, sw.pureExtractor];
      })
      .toEqual([true, true]);
    await expect.poll(() => page.getByLabel('Voice replies for Clinic line').isChecked()).toBe(true);
    await shot(page, 'chatbot-editors', 'desktop');
  }, 120_000);

  it('shows Tenants to the admin key only: creates a tenant whose key signs in, issues and revokes a key', async () => {
    for (const size of ['desktop', 'phone'] as const) {
      const page = await open(size);
      await signIn(page, inject('adminApiKey'));
      await visit(page, 'Tenants');
      const name = `Clinic ${size} ${Date.now()}`;
      await page.getByLabel('Tenant name').fill(name);
      await page.getByRole('button', { name: 'Create tenant' }).click();
      const firstKey = await page.getByLabel('New API key').inputValue();
      expect(firstKey).toMatch(/^wsm_/);
      expect((await api().post('/api/auth/token', { apiKey: firstKey })).status).toBe(200);
      const detail = page.locator('.tenant');
      await detail.getByRole('heading', { name: new RegExp(name) }).waitFor();
      await detail.getByRole('table', { name: 'API keys' }).locator('tbody tr').first().waitFor();

      await page.getByLabel('Key label').fill('front desk tablet');
      await page.getByRole('button', { name: 'Issue key' }).click();
      await detail.getByRole('cell', { name: 'front desk tablet' }).waitFor();
      const second = await detail.getByLabel('New API key').inputValue();
      expect(second).toMatch(/^wsm_/);
      expect(second).not.toBe(firstKey);
      await shot(page, 'tenants', size);

      // Revoking the first key (after the page asks) refuses it from then on.
      page.once('dialog', (d) => d.accept());
      const firstRow = detail.locator('tbody tr', { hasText: firstKey.slice(0, 12) });
      await firstRow.getByRole('button', { name: /^Revoke key/ }).click();
      await firstRow.getByText('revoked').waitFor();
      expect((await api().post('/api/auth/token', { apiKey: firstKey })).status).toBe(401);
    }
  }, 30_000);
});
