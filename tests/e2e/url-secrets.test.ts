import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { tenantSecretName } from '#shared/aws/resources';
import { env } from '#shared/config/env';
import { getWebhookConfig } from '#shared/webhooks/config-store';
import { newTenant } from '../support/client.ts';
import { must } from '../support/must.ts';

/** Secrets inside URLs: shown masked, kept when sent back as shown, refused for a new destination. */
describe('secrets in URLs', () => {
  it('a token in a webhook URL’s query is masked on read and kept when the URL comes back as shown', async () => {
    const t = await newTenant('hook token');
    const url = 'http://127.0.0.1:9/hook?token=tok-secret-123&team=7';
    const saved = await t.api.post('/api/webhook/config', { webhookUrl: url, approvedDomains: '127.0.0.1' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = await t.api.get('/api/webhook/config');
    expect(read.body.config.webhookUrl).toBe('http://127.0.0.1:9/hook?token=********&team=7');
    expect(read.body.effective.webhookUrl).toBe('http://127.0.0.1:9/hook?token=********&team=7');
    expect(JSON.stringify(read.body)).not.toContain('tok-secret-123');

    const again = await t.api.post('/api/webhook/config', {
      webhookUrl: read.body.config.webhookUrl,
      enabled: true,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await getWebhookConfig(t.id))?.webhookUrl).toBe(
      'http://127.0.0.1:9/hook?token=tok-secret-123&team=7',
    );

    // The masked token with another host would send the stored token there: refused.
    const moved = await t.api.post('/api/webhook/config', {
      webhookUrl: 'http://127.0.0.2:9/hook?token=********&team=7',
      approvedDomains: '127.0.0.1, 127.0.0.2',
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/^webhookUrl: holds a masked secret/);
  });

  it('a password in a connection string’s query is masked on read and kept only for the same database', async () => {
    const t = await newTenant('conn string');
    const EXPORT = '/api/sessions/contacts/export/settings';
    const connectionString = 'postgres://bob@db.example.com:5432/crm?sslmode=require&password=qs-hunter2';
    const put = await t.api.request('PUT', EXPORT, { sqltable: { connectionString, table: 'leads' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('qs-hunter2');
    const got = await t.api.get(EXPORT);
    expect(got.body.settings.sqltable.connectionString).toBe(
      'postgres://bob@db.example.com:5432/crm?sslmode=require&password=********',
    );

    const back = await t.api.request('PUT', EXPORT, {
      sqltable: { ...got.body.settings.sqltable, table: 'leads2' },
    });
    expect(back.status).toBe(200);
    const secrets = new SecretsManagerClient({ region: process.env.AWS_REGION });
    const secretId = tenantSecretName(env().RESOURCE_PREFIX, t.id, 'export-settings');
    const stored = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    expect(JSON.parse(must(stored.SecretString, 'stored.SecretString')).sqltable.connectionString).toBe(
      connectionString,
    );

    const moved = await t.api.request('PUT', EXPORT, {
      sqltable: {
        connectionString: 'postgres://bob@evil.example.com:5432/crm?sslmode=require&password=********',
        table: 'leads',
      },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/^sqltable.connectionString: holds a masked secret/);
  });
});
