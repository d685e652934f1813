import { generateKeyPairSync } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tenantSecretName } from '#shared/aws/resources';
import { env } from '#shared/config/env';
import { listChats } from '#shared/contacts/repository';
import { exportSettingsKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { startFakePostgres } from '../support/fake-postgres.ts';
import type { RecordedSheetsCall } from '../support/fake-sheets.ts';
import { must } from '../support/must.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';

const sim = api();
const baseUrl = () => inject('baseUrl');
const EXPORT = '/api/sessions/contacts/export';

const NAMES: Record<string, string> = {
  '919811500001': 'Sharma, Asha',
  '919811500002': 'Ravi "K" Kumar',
  '919811500003': 'Line one\nLine two',
  '919811500004': 'മീര നായർ',
  '919811500005': '=HYPERLINK("http://x")',
};

async function seed(tenantId: string, sessionId: string, names: Record<string, string>) {
  for (const [from, name] of Object.entries(names))
    expect((await sim.post('/_sim/inbound', { sessionId, from, name, text: 'hi' })).status).toBe(200);
  const n = Object.keys(names).length;
  await waitFor(async () => (await listChats(tenantId, sessionId)).length >= n, 15_000, 'chats stored');
}

async function rawPost(token: string, body: unknown) {
  const res = await fetch(`${baseUrl()}${EXPORT}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const guarded = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

let pgServer: TestPostgres;
beforeAll(async () => {
  pgServer = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pgServer?.stop();
});

describe('POST /api/sessions/contacts/export', () => {
  it('csv: streams the deduplicated contacts; parses back exactly (commas, quotes, newlines, Malayalam, formula guard, BOM); s3 delivery links the same file', async () => {
    const t = await newTenant();
    const a = await readySession(t.api, 'a');
    const b = await readySession(t.api, 'b');
    await seed(t.id, a.sessionId, NAMES);
    await seed(t.id, b.sessionId, { '919811500001': 'Asha in b', '14155550111': 'Ann' });

    const r = await rawPost(t.token, {
      exportType: 'csv',
      sessionIds: `${a.sessionId},${b.sessionId}`,
      bom: true,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect(r.headers.get('content-disposition')).toMatch(/attachment; filename="contacts-[\dTZ]+\.csv"/);
    expect([...r.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8').decode(r.bytes);
    const records = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    // Asha once (first session wins), Ann from b.
    expect(records).toHaveLength(6);
    const byPhone = new Map(records.map((x) => [x.phone_number, x]));
    for (const [phone, name] of Object.entries(NAMES)) {
      const row = byPhone.get(phone);
      expect(row?.name).toBe(guarded(name));
      expect(row?.session_id).toBe(a.sessionId);
      expect(row?.formatted_number).toBe(`'+91 ${phone.slice(2, 7)} ${phone.slice(7)}`);
    }
    expect(byPhone.get('14155550111')).toEqual({
      phone_number: '14155550111',
      formatted_number: "'+1 415 555 0111",
      name: 'Ann',
      session_id: b.sessionId,
      extracted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(Object.keys(records[0] as object)).toEqual([
      'phone_number',
      'formatted_number',
      'name',
      'session_id',
      'extracted_at',
    ]);

    // sessionIds as an array, mobile, no BOM by default.
    const onlyB = await rawPost(t.token, { exportType: 'csv', sessionIds: [b.sessionId] });
    expect([...onlyB.bytes.slice(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    const bRows = parse(new TextDecoder().decode(onlyB.bytes), { columns: true }) as Record<string, string>[];
    expect(bRows.map((x) => x.name).sort()).toEqual(['Ann', 'Asha in b']);
    const byMobile = await rawPost(t.token, { exportType: 'csv', mobile: `+${a.mobile_number}` });
    expect(parse(new TextDecoder().decode(byMobile.bytes), { columns: true })).toHaveLength(5);

    // delivery s3: a link of ours (a redirect to S3) to the same CSV.
    const linked = await t.api.post(EXPORT, {
      exportType: 'csv',
      delivery: 's3',
      sessionIds: [a.sessionId, b.sessionId],
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      success: true,
      exportType: 'csv',
      totalContacts: 6,
      expiresIn: 86_400,
    });
    expect(linked.body.downloadUrl).toMatch(/\/links\/v1\./);
    const file = await fetch(linked.body.downloadUrl);
    expect(file.status).toBe(200);
    const fromS3 = parse(await file.text(), { columns: true }) as Record<string, string>[];
    expect(fromS3.map((x) => x.phone_number).sort()).toEqual(records.map((x) => x.phone_number).sort());
    expect(fromS3.find((x) => x.phone_number === '919811500003')?.name).toBe('Line one\nLine two');
  });

  it('keeps tenants apart and rejects bad input with clear 4xx', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await seed(t.id, s.sessionId, { '919811600001': 'Mine' });
    const other = await newTenant();
    const empty = await rawPost(other.token, { exportType: 'csv' });
    expect(empty.status).toBe(200);
    expect(parse(new TextDecoder().decode(empty.bytes), { columns: true })).toEqual([]);
    const foreign = await other.api.post(EXPORT, { exportType: 'csv', sessionIds: [s.sessionId] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('SESSION_NOT_FOUND');
    const bad = await t.api.post(EXPORT, { exportType: 'xlsx' });
    expect(bad.status).toBe(400);
    const unconfigured = await t.api.post(EXPORT, { exportType: 'sqltable' });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.error.message).toContain('not configured');
    expect((await api().post(EXPORT, { exportType: 'csv' })).status).toBe(401);
  });

  it('settings: stored per tenant, secrets masked on read, a masked value sent back keeps the secret', async () => {
    const t = await newTenant();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const put = await t.api.request('PUT', `${EXPORT}/settings`, {
      sqltable: { connectionString: 'postgres://bob:hunter2-secret@db.example.com:5432/crm', table: 'leads' },
      onlinesheet: {
        spreadsheetId: '1AbCdEfGhIjKlMnOp',
        sheetName: 'Leads',
        serviceAccountKey: JSON.stringify({ client_email: 'x@p.iam.gserviceaccount.com', private_key: pem }),
      },
    });
    expect(put.status).toBe(200);
    const got = await t.api.get(`${EXPORT}/settings`);
    expect(got.status).toBe(200);
    const raw = JSON.stringify(got.body);
    expect(raw).not.toContain('hunter2');
    expect(raw).not.toContain('PRIVATE KEY');
    expect(got.body.settings.sqltable).toEqual({
      connectionString: 'postgres://bob:********@db.example.com:5432/crm',
      table: 'leads',
    });
    expect(got.body.settings.onlinesheet.serviceAccountKey).toEqual({
      client_email: 'x@p.iam.gserviceaccount.com',
      private_key: '********',
    });
    // Sent back as shown: the stored secrets stay (the export still has them).
    const again = await t.api.request('PUT', `${EXPORT}/settings`, {
      sqltable: { ...got.body.settings.sqltable, table: 'leads2' },
    });
    expect(again.status).toBe(200);
    expect(again.body.settings.sqltable.table).toBe('leads2');
    expect(again.body.settings.onlinesheet.spreadsheetId).toBe('1AbCdEfGhIjKlMnOp');
    // Kept whole as the tenant's secret in Secrets Manager, nothing of it in the data table.
    const secrets = new SecretsManagerClient({ region: process.env.AWS_REGION });
    const secretId = tenantSecretName(env().RESOURCE_PREFIX, t.id, 'export-settings');
    const stored = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    expect(JSON.parse(must(stored.SecretString, 'stored.SecretString')).sqltable).toEqual({
      connectionString: 'postgres://bob:hunter2-secret@db.example.com:5432/crm',
      table: 'leads2',
    });
    expect(await dataTable.get(exportSettingsKey(t.id), true)).toBeUndefined();
    // Another tenant sees none of it.
    const other = await newTenant();
    expect((await other.api.get(`${EXPORT}/settings`)).body.settings).toEqual({
      sqltable: null,
      onlinesheet: null,
      updatedAt: null,
    });
    const badTable = await t.api.request('PUT', `${EXPORT}/settings`, {
      sqltable: { connectionString: 'postgres://a@h/db', table: 'x; drop table y' },
    });
    expect(badTable.status).toBe(400);
    const badKey = await t.api.request('PUT', `${EXPORT}/settings`, {
      onlinesheet: { spreadsheetId: '1AbCdEfGhIjKlMnOp', serviceAccountKey: '{not json' },
    });
    expect(badKey.status).toBe(400);
    // Removing both targets deletes the secret.
    const cleared = await t.api.request('PUT', `${EXPORT}/settings`, { sqltable: null, onlinesheet: null });
    expect(cleared.status).toBe(200);
    await expect(secrets.send(new GetSecretValueCommand({ SecretId: secretId }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('a masked secret is kept only for the place it belongs to: never sent to a new host', async () => {
    const t = await newTenant();
    const s = await readySession(t.api, 'masked');
    await seed(t.id, s.sessionId, { '919811500077': 'Asha' });
    const trap = await startFakePostgres();
    try {
      const stored = 'postgres://bob:hunter2-secret@db.example.com:5432/crm?sslmode=require';
      expect(
        (
          await t.api.request('PUT', `${EXPORT}/settings`, {
            sqltable: { connectionString: stored, table: 'leads' },
          })
        ).status,
      ).toBe(200);
      const shown = (await t.api.get(`${EXPORT}/settings`)).body.settings.sqltable.connectionString as string;
      expect(shown).toBe('postgres://bob:********@db.example.com:5432/crm?sslmode=require');
      // The masked form with anything else changed: the trap's host, another port, user, database or parameter.
      for (const changed of [
        `postgres://bob:********@127.0.0.1:${trap.port}/crm?sslmode=require`,
        'postgres://bob:********@db.example.com:5433/crm?sslmode=require',
        'postgres://eve:********@db.example.com:5432/crm?sslmode=require',
        'postgres://bob:********@db.example.com:5432/other?sslmode=require',
        `postgres://bob:********@db.example.com:5432/crm?sslmode=require&host=127.0.0.1&port=${trap.port}`,
        `postgres://bob:%2A%2A%2A%2A%2A%2A%2A%2A@127.0.0.1:${trap.port}/crm`,
      ]) {
        const r = await t.api.request('PUT', `${EXPORT}/settings`, {
          sqltable: { connectionString: changed, table: 'leads' },
        });
        expect(r.status, changed).toBe(400);
        expect(r.body.error.message).toMatch(/points somewhere new/);
      }
      // Nothing moved: an export still aims at the stored host, and the trap never heard from us.
      await t.api.post(EXPORT, { exportType: 'sqltable' });
      expect(trap.connections()).toBe(0);
      expect(trap.logins).toEqual([]);
      // Sent back exactly as shown, it keeps the stored password.
      const same = await t.api.request('PUT', `${EXPORT}/settings`, {
        sqltable: { connectionString: shown, table: 'leads3' },
      });
      expect(same.status).toBe(200);
      // A password in the query is masked on read too.
      const q = await t.api.request('PUT', `${EXPORT}/settings`, {
        sqltable: {
          connectionString: 'postgres://bob@db.example.com/crm?password=pw-in-query',
          table: 'leads',
        },
      });
      expect(q.status).toBe(200);
      expect(JSON.stringify(q.body)).not.toContain('pw-in-query');
      expect(JSON.stringify((await t.api.get(`${EXPORT}/settings`)).body)).not.toContain('pw-in-query');
      // The service-account key: masked with another client_email or token_uri is refused.
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const sheet = { spreadsheetId: '1AbCdEfGhIjKlMnOp', sheetName: 'Leads' };
      const key = { client_email: 'x@p.iam.gserviceaccount.com', private_key: pem };
      expect(
        (
          await t.api.request('PUT', `${EXPORT}/settings`, {
            onlinesheet: { ...sheet, serviceAccountKey: key },
          })
        ).status,
      ).toBe(200);
      for (const masked of [
        { client_email: 'eve@p.iam.gserviceaccount.com', private_key: '********' },
        {
          client_email: 'x@p.iam.gserviceaccount.com',
          private_key: '********',
          token_uri: `http://127.0.0.1:${trap.port}/token`,
        },
      ]) {
        const r = await t.api.request('PUT', `${EXPORT}/settings`, {
          onlinesheet: { ...sheet, serviceAccountKey: masked },
        });
        expect(r.status, JSON.stringify(masked)).toBe(400);
      }
      const kept = await t.api.request('PUT', `${EXPORT}/settings`, {
        onlinesheet: {
          ...sheet,
          serviceAccountKey: { client_email: key.client_email, private_key: '********' },
        },
      });
      expect(kept.status).toBe(200);
    } finally {
      await trap.close();
    }
  });

  it('sqltable: upserts the rows into a real PostgreSQL table; a second export updates instead of duplicating', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await seed(t.id, s.sessionId, NAMES);
    const table = `contacts_${t.id.replace(/\W/g, '').slice(0, 20)}`;
    const put = await t.api.request('PUT', `${EXPORT}/settings`, {
      sqltable: { connectionString: pgServer.url, table: `public.${table}` },
    });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(pgServer.password);

    const first = await t.api.post(EXPORT, { exportType: 'sqltable' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      exportType: 'sqltable',
      totalContacts: 5,
      table: `public.${table}`,
    });

    const db = new pg.Client(pgServer.url);
    await db.connect();
    try {
      const q = () =>
        db.query(
          `SELECT session_id, phone_number, formatted_number, name, extracted_at FROM public.${table} ORDER BY phone_number`,
        );
      const rows1 = (await q()).rows;
      expect(rows1).toHaveLength(5);
      expect(rows1.map((r) => [r.phone_number, r.name])).toEqual(Object.entries(NAMES));
      expect(rows1[0]).toMatchObject({ session_id: s.sessionId, formatted_number: '+91 98115 00001' });

      // A name changes and a contact is added: the second export upserts.
      await seed(t.id, s.sessionId, { '919811500002': 'Ravi renamed', '919811500006': 'New one' });
      await waitFor(async () => (await listChats(t.id, s.sessionId)).length >= 6, 15_000, 'new chat');
      const second = await t.api.post(EXPORT, { exportType: 'sqltable', sessionIds: s.sessionId });
      expect(second.status).toBe(200);
      expect(second.body.totalContacts).toBe(6);
      const rows2 = (await q()).rows;
      expect(rows2).toHaveLength(6);
      expect(rows2.find((r) => r.phone_number === '919811500002')?.name).toBe('Ravi renamed');
      expect(new Date(rows2[0].extracted_at).getTime()).toBeGreaterThan(
        new Date(rows1[0].extracted_at).getTime(),
      );
      const pk = await db.query(
        `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
         WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY a.attname`,
        [`public.${table}`],
      );
      expect(pk.rows.map((r) => r.attname)).toEqual(['phone_number', 'session_id']);
    } finally {
      await db.end();
    }

    // A wrong password is a clear upstream error, never the password.
    await t.api.request('PUT', `${EXPORT}/settings`, {
      sqltable: { connectionString: pgServer.url.replace(pgServer.password, 'wrong-pw'), table },
    });
    const refused = await t.api.post(EXPORT, { exportType: 'sqltable' });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(JSON.stringify(refused.body)).not.toContain('wrong-pw');
  });

  it('onlinesheet: appends the rows with a token obtained by a validly signed service-account JWT', async () => {
    const fake = inject('fakeSheetsUrl');
    const t = await newTenant();
    const s = await readySession(t.api);
    await seed(t.id, s.sessionId, { '919811700001': 'Sharma, Asha', '919811700002': 'മീര' });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = `exporter-${t.id.slice(0, 12)}@proj.iam.gserviceaccount.com`;
    await fetch(`${fake}/_control/accounts`, {
      method: 'POST',
      body: JSON.stringify({
        client_email: email,
        publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }),
      }),
    });
    const spreadsheetId = `sheet_${t.id.replace(/\W/g, '').slice(0, 20)}`;
    const put = await t.api.request('PUT', `${EXPORT}/settings`, {
      onlinesheet: {
        spreadsheetId,
        sheetName: 'Leads',
        serviceAccountKey: {
          type: 'service_account',
          client_email: email,
          private_key_id: 'abc123',
          private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      },
    });
    expect(put.status).toBe(200);
    const r = await t.api.post(EXPORT, { exportType: 'onlinesheet' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      exportType: 'onlinesheet',
      totalContacts: 2,
      spreadsheetId,
    });
    expect(r.body.updatedRanges).toEqual(["'Leads'!A1:E3"]);

    const rec = (await (await fetch(`${fake}/_control/requests`)).json()) as {
      calls: RecordedSheetsCall[];
      tokenRequests: { iss: string; ok: boolean }[];
    };
    expect(rec.tokenRequests.filter((x) => x.iss === email)).toEqual([{ iss: email, ok: true }]);
    const appends = rec.calls.filter((c) => c.spreadsheetId === spreadsheetId && c.method === 'POST');
    expect(appends).toHaveLength(1);
    const call = appends[0] as RecordedSheetsCall;
    expect(call.account).toBe(email);
    expect(call.range).toBe("'Leads'!A1");
    expect(call.query).toEqual({ valueInputOption: 'RAW', insertDataOption: 'INSERT_ROWS' });
    const values = (call.body as { values: string[][] }).values;
    expect(values[0]).toEqual(['phone_number', 'formatted_number', 'name', 'session_id', 'extracted_at']);
    expect(values.slice(1).map((v) => v.slice(0, 4))).toEqual([
      ['919811700001', '+91 98117 00001', 'Sharma, Asha', s.sessionId],
      ['919811700002', '+91 98117 00002', 'മീര', s.sessionId],
    ]);

    // A second export appends below, without a second header.
    const again = await t.api.post(EXPORT, { exportType: 'onlinesheet' });
    expect(again.body.updatedRanges).toEqual(["'Leads'!A4:E5"]);

    // A key the fake does not trust (not the registered one) is refused as an upstream error.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await t.api.request('PUT', `${EXPORT}/settings`, {
      onlinesheet: {
        spreadsheetId,
        sheetName: 'Leads',
        serviceAccountKey: {
          client_email: email,
          private_key: other.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      },
    });
    const refused = await t.api.post(EXPORT, { exportType: 'onlinesheet' });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
  });
});
