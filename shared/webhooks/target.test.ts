import { describe, expect, it } from 'vitest';
import { must } from '../must.ts';
import { hubSignature } from './cloud/sign.ts';
import { signature } from './sign.ts';
import { CLOUD_EVENTS, headersFor, isCloudEvent, serialise, type Target } from './target.ts';

const target = (format: 'native' | 'cloud'): Target => ({
  format,
  webhookUrl: 'https://hooks.example.com/x',
  secretToken: 'the-secret',
  approvedDomains: ['example.com'],
  domainsSource: 'tenant',
  enabled: true,
});

describe('webhook target by event', () => {
  it('sends cloud.* events in the Cloud format and every other event natively', () => {
    expect(isCloudEvent(CLOUD_EVENTS.inbound)).toBe(true);
    expect(isCloudEvent(CLOUD_EVENTS.status)).toBe(true);
    for (const e of ['message.inbound', 'message.status', 'session.status', 'command.result']) {
      expect(isCloudEvent(e)).toBe(false);
    }
  });

  it('escapes non-ASCII only in Cloud bodies', () => {
    expect(serialise('message.inbound', { t: 'é' })).toBe('{"t":"é"}');
    expect(serialise(CLOUD_EVENTS.inbound, { t: 'é' })).toBe('{"t":"\\u00e9"}');
  });

  it('signs each format its own way with the configured secret', () => {
    const d = { deliveryId: 'd', event: CLOUD_EVENTS.status, attempt: 1, body: '{}' };
    const cloud = headersFor(target('cloud'), d);
    expect(cloud['x-hub-signature-256']).toBe(hubSignature('the-secret', '{}'));
    expect(cloud).not.toHaveProperty('x-service-secret');
    const native = headersFor(target('native'), { ...d, event: 'message.status' });
    expect(native['x-service-signature']).toBe(
      signature('the-secret', must(native['x-service-timestamp'], 'the timestamp header'), '{}'),
    );
    expect(native).not.toHaveProperty('x-hub-signature-256');
  });
});
