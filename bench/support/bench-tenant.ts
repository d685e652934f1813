import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { dynamoClient } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { toAttr } from '#shared/store/db';
import { contactKey } from '#shared/store/keys';
import { jsonCaller } from '../../tests/support/http.ts';

/**
 * What benches set up on their service before measuring: a fresh tenant (through the HTTP API, as
 * a client would), a READY session, and contacts seeded straight into the local DynamoDB (as the
 * events consumer would have stored them). One owner for the set-up the benches each wrote again.
 */

type Call = ReturnType<typeof jsonCaller>;

/** The admin's token, then a fresh tenant and its own token. */
export async function benchTenant(baseUrl: string, adminApiKey: string, name = 'bench') {
  const call = jsonCaller(baseUrl);
  const admin = (await call('POST', '/api/auth/token', undefined, { apiKey: adminApiKey })).body
    .token as string;
  const created = (await call('POST', '/api/admin/tenants', admin, { name })).body;
  const token = (await call('POST', '/api/auth/token', undefined, { apiKey: created.apiKey })).body
    .token as string;
  return {
    call,
    admin,
    token,
    tenantId: created.tenant.id as string,
    portalId: created.tenant.portal_id as string,
  };
}

/** Creates a session and waits (up to 30 s) until it is READY; answers its id. */
export async function readyBenchSession(call: Call, token: string, name = 'bench'): Promise<string> {
  const sessionId = (await call('POST', '/api/sessions', token, { name })).body.session.sessionId as string;
  const deadline = Date.now() + 30_000;
  while ((await call('GET', `/api/sessions/${sessionId}`, token)).body.session.status !== 'READY') {
    if (Date.now() > deadline) throw new Error('session did not become READY');
    await new Promise((r) => setTimeout(r, 100));
  }
  return sessionId;
}

/**
 * Seeds `n` contacts into one session: BatchWriteItem, 25 items a request, 16 requests in flight,
 * unprocessed items sent again. Names mix commas, quotes and Malayalam (what exports must escape).
 */
export async function seedContacts(tenantId: string, sessionId: string, n: number): Promise<void> {
  const flush = async (b: Record<string, unknown>[]) => {
    let requests = b.map((it) => ({ PutRequest: { Item: toAttr(it) } }));
    while (requests.length) {
      const r = await dynamoClient().send(
        new BatchWriteItemCommand({ RequestItems: { [names.dataTable()]: requests } }),
      );
      requests = (r.UnprocessedItems?.[names.dataTable()] ?? []) as typeof requests;
    }
  };
  const now = Date.now();
  let batch: Record<string, unknown>[] = [];
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const phone = `9198${String(i).padStart(8, '0')}`;
    batch.push({
      ...contactKey(tenantId, sessionId, phone),
      type: 'contact',
      tenantId,
      sessionId,
      phone,
      name: i % 10 === 0 ? `Sharma, "Lead" ${i}` : i % 7 === 0 ? `മീര ${i}` : `Lead ${i}`,
      lastMsgAt: now - i * 1000,
    });
    if (batch.length === 25) {
      pending.push(flush(batch));
      batch = [];
      if (pending.length >= 16) await Promise.all(pending.splice(0));
    }
  }
  if (batch.length) pending.push(flush(batch));
  await Promise.all(pending);
}
