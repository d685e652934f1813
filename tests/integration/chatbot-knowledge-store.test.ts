import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import {
  getIntentsRecord,
  putBrain,
  putIntents,
  putPrompt,
  resolveBrain,
  resolvePrompt,
  setTenantProfile,
  tenantProfile,
} from '#shared/chatbot/knowledge';
import { chatbotBrainKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/** The knowledge repository against the local DynamoDB and S3 the service uses. */
describe('chatbot knowledge store', () => {
  it('keeps small documents in the item and large ones in S3, and reads both back', async () => {
    const tenant = `t_${randomUUID()}`;
    const small: Brain = { business: { name: 'Small' } };
    await putBrain(tenant, 'small', small);
    const items = Array.from({ length: 8_000 }, (_, i) => ({
      sku: `S${i}`,
      name: randomBytes(40).toString('base64'),
    }));
    const large: Brain = { business: { name: 'Large' }, stock: { items } };
    const meta = await putBrain(tenant, 'large', large);

    const rawSmall = await dataTable.get<{ gz?: Uint8Array; s3Key?: string }>(
      chatbotBrainKey(tenant, 'small'),
    );
    expect(rawSmall?.gz).toBeInstanceOf(Uint8Array);
    expect(rawSmall?.s3Key).toBeUndefined();
    const rawLarge = await dataTable.get<{ gz?: Uint8Array; s3Key?: string }>(
      chatbotBrainKey(tenant, 'large'),
    );
    expect(rawLarge?.gz).toBeUndefined();
    expect(rawLarge?.s3Key).toBe(`chatbot/${tenant}/brain/${meta.version}.json.gz`);

    expect((await resolveBrain(tenant, ['small']))?.brain).toEqual(small);
    expect(await resolveBrain(tenant, ['nope', 'large'])).toMatchObject({ key: 'large', brain: large });
  });

  it('resolves in the order given, then global; another tenant sees nothing', async () => {
    const tenant = `t_${randomUUID()}`;
    expect(await resolvePrompt(tenant, ['a', 'b'])).toBeUndefined();
    await putPrompt(tenant, 'global', 'G');
    await putPrompt(tenant, 'b', 'B', { url: 'https://example.com/p.txt' });
    expect(await resolvePrompt(tenant, ['a', 'b'])).toMatchObject({
      key: 'b',
      prompt: 'B',
      meta: { source: 'remote', url: 'https://example.com/p.txt' },
    });
    expect((await resolvePrompt(tenant, ['a']))?.key).toBe('global');
    expect(await resolvePrompt(`t_${randomUUID()}`, ['b', 'global'])).toBeUndefined();
  });

  it('versions intents by content and keeps the profile per tenant', async () => {
    const tenant = `t_${randomUUID()}`;
    const intents = Intents.parse({
      intents: [{ id: 'a', category: 'c', action: 'x', training_phrases: { en: ['hello'] } }],
    });
    const first = await putIntents(tenant, intents);
    const same = await putIntents(tenant, Intents.parse(JSON.parse(JSON.stringify(intents))));
    expect(same.version).toBe(first.version);
    const rec = await getIntentsRecord(tenant);
    expect(rec).toMatchObject({ version: first.version, intents });
    // The same version answers the same object: consumers may cache by identity.
    expect((await getIntentsRecord(tenant))?.intents).toBe(rec?.intents);
    const changed = await putIntents(tenant, { ...intents, intents: [] });
    expect(changed.version).not.toBe(first.version);

    expect(await tenantProfile(tenant)).toBeUndefined();
    await setTenantProfile(tenant, 'salon');
    expect(await tenantProfile(tenant)).toBe('salon');
  });
});
