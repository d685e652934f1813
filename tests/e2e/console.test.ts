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
    await history.getByText('READY').waitFor({ timeout: 10_000 });
    await history.getByText('QR_READY').waitFor({ timeout: 10_000 });
    const stored = await tenant.api.get(`/api/sessions/${sessionId}/history`);
    const statuses = stored.body.changes.map((c: { status: string }) => c.status);
    expect(statuses[0]).toBe('READY');
    expect(statuses).toContain('QR_READY');
    await shot(desktop, 'sessions', 'desktop');

    // The Inbox follows the tenant stream: a message from a customer appears without a reload.
    await visit(desktop, 'Inbox');
    await desktop.locator('.muted', { hasText: 'Live updates' }).getByText('live').waitFor();
    await simInbound({
      sessionId,
      from: '15550004444',
      name: 'Asha',
      text: 'Hello, is the clinic open today?',
    });
    const chat = desktop.getByRole('button', { name: /Asha/ });
    await chat.waitFor({ timeout: 10_000 });
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
    const deliveryId = (await failed.getAttribute('data-delivery'))!;
    healthy = true;
    await failed.getByRole('button', { name: 'Redeliver' }).click();
    await desktop
      .locator(`tr[data-delivery="${deliveryId}"]`)
      .getByText('delivered')
      .waitFor({ timeout: 15_000 });
    expect(receiver.requests.some((r) => r.status === 200)).toBe(true);
    await shot(desktop, 'webhooks', 'desktop');

    // Exports: the contacts CSV is downloaded, with the customer in it.
    await visit(desktop, 'Exports');
    const [download] = await Promise.all([
      desktop.waitForEvent('download'),
      desktop.getByRole('button', { name: 'Download contacts CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('phone_number');
    expect(csv).toContain('15550004444');
    await shot(desktop, 'exports', 'desktop');

    await visit(desktop, 'Usage');
    await desktop.getByRole('cell', { name: 'Front desk' }).waitFor();
    await shot(desktop, 'usage', 'desktop');

    // The same screens on a phone.
    const phone = await open('phone');
    await shot(phone, 'sign-in', 'phone');
    await signIn(phone, tenant.apiKey);
    for (const name of ['Sessions', 'Inbox', 'Chatbot', 'Webhooks', 'Usage', 'Exports']) {
      await visit(phone, name);
      if (name === 'Inbox') {
        await phone.getByRole('button', { name: /Asha/ }).click();
        await phone.getByRole('list', { name: 'Messages' }).getByText('Yes, until 6 pm.').waitFor();
      }
      await shot(phone, name.toLowerCase(), 'phone');
    }
  }, 90_000);

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
      (await api().post('/_sim/receipt', { sessionId, messageId: sent!.id, status: 'read' })).status,
    ).toBe(200);
    await messages.getByRole('img', { name: 'read' }).waitFor({ timeout: 15_000 });
    await shot(page, 'inbox-media', 'desktop');
  }, 150_000);

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
