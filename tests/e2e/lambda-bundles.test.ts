import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleLambda } from '../../infra/lambda-bundle.ts';
import { httpApiEvent } from '../support/api-gateway-event.ts';
import { must } from '../support/must.ts';

/**
 * The functions as the stack deploys them (infra/lambda-bundle.ts), run with plain `node`: no tsx,
 * no node_modules but what the bundle folder holds. The API is invoked with API Gateway (HTTP API)
 * events against the local stack, including the routes whose modules are loaded on first use.
 */
const outside = join('/tmp', `lambda-test-${process.pid}`);
afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
});

interface Reply {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

/** One cold invocation of the bundled API: a fresh `node` process imports `index.mjs` and calls `handler`. */
function invoke(
  dir: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Reply {
  const [rawPath, rawQueryString = ''] = path.split('?');
  const event = httpApiEvent({
    method,
    rawPath: must(rawPath, 'rawPath'),
    rawQueryString,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    userAgent: 'bundle-test',
  });
  return runHandler(dir, event, { PAYMENT_UPI_ID: 'shop@okaxis', PAYMENT_UPI_NAME: 'Bundle Shop' })
    .reply as Reply;
}

/**
 * A fresh `node` process imports the bundle's `index.mjs` and calls `handler(event)` once, with the
 * local stack's environment; answers the handler's reply and everything else it printed.
 */
function runHandler(
  dir: string,
  event: unknown,
  env: Record<string, string>,
): { reply: unknown; stdout: string } {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { handler } = await import(${JSON.stringify(join(dir, 'index.mjs'))});
       const reply = await handler(JSON.parse(process.env.EVENT), {});
       // Exits once written: a pipe takes a large reply in several writes.
       process.stdout.write('\\nREPLY ' + JSON.stringify(reply) + '\\n', () => process.exit(0));`,
    ],
    {
      cwd: '/',
      encoding: 'utf8',
      // A reply can be large (the Swagger UI script is about 1.7 MB).
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        ...inject('serviceEnv'),
        LOG_LEVEL: 'warn',
        NODE_NO_WARNINGS: '1',
        ...env,
        EVENT: JSON.stringify(event),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const at = out.lastIndexOf('\nREPLY ');
  return { reply: JSON.parse(out.slice(at + 7)), stdout: out.slice(0, at) };
}

const json = (r: Reply) => JSON.parse(r.body);

describe('the bundled Lambdas (what `cdk deploy` uploads), run with plain node', () => {
  const api = join(outside, 'api');
  beforeAll(async () => {
    // Outside the repository: nothing may resolve from the project's node_modules.
    await bundleLambda('api', api);
  }, 60_000);

  it('API: health, OpenAPI, a tenant and its token, bad input, and the routes whose modules load on first use', () => {
    expect(invoke(api, 'GET', '/health').statusCode).toBe(200);
    const spec = invoke(api, 'GET', '/openapi.json');
    expect(spec.statusCode).toBe(200);
    expect(json(spec).paths['/api/messages/send']).toBeDefined();

    const adminReply = invoke(api, 'POST', '/api/auth/token', { apiKey: inject('adminApiKey') });
    expect(adminReply.statusCode, adminReply.body).toBe(200);
    const tenant = invoke(api, 'POST', '/api/admin/tenants', { name: 'bundle' }, json(adminReply).token);
    expect(tenant.statusCode, tenant.body).toBe(201);
    const token: string = json(invoke(api, 'POST', '/api/auth/token', { apiKey: json(tenant).apiKey })).token;

    const bad = invoke(api, 'POST', '/api/sessions', { name: 'x'.repeat(10_000) }, token);
    expect(bad.statusCode).toBe(400);
    expect(json(bad).error).toBeTruthy();

    // re2js, imported on first use: a pattern RE2 refuses is a 400 naming the field, a valid one is stored.
    const refused = invoke(
      api,
      'POST',
      '/api/v1/chatbot/rules',
      { mobid: '*', triggerType: 'regex', keyword: '(a)\\1', replyType: 'text', response: 'hi' },
      token,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toContain('keyword');
    const stored = invoke(
      api,
      'POST',
      '/api/v1/chatbot/rules',
      {
        mobid: '*',
        triggerType: 'regex',
        keyword: '^price(s)?$',
        replyType: 'text',
        response: 'See the menu',
      },
      token,
    );
    expect(stored.statusCode, stored.body).toBe(201);

    // The chatbot's profile templates: JSON files inlined into the bundle and validated as they load.
    const template = invoke(api, 'GET', '/api/v1/chatbot/templates/clinic');
    expect(template.statusCode, template.body).toBe(200);
    expect(json(template).brain.business.profile).toBe('clinic');

    // /docs: Swagger UI's script and style sheet from the bundle, no CDN.
    const page = invoke(api, 'GET', '/docs');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('src="/docs/assets/swagger-ui-bundle.js"');
    expect(page.body).not.toMatch(/https?:\/\//);
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const asset = invoke(api, 'GET', `/docs/assets/${name}`);
      expect(asset.statusCode, name).toBe(200);
      const bytes = asset.isBase64Encoded ? Buffer.from(asset.body, 'base64').length : asset.body.length;
      expect(bytes, name).toBeGreaterThan(10_000);
    }

    // /console: the page and its script, built at bundling (esbuild is not in the bundle).
    const consolePage = invoke(api, 'GET', '/console');
    expect(consolePage.statusCode, consolePage.body).toBe(200);
    const script = consolePage.body.match(/src="(\/console\/assets\/app\.js\?v=\w+)"/)?.[1];
    expect(script).toBeDefined();
    const consoleScript = invoke(api, 'GET', must(script, 'script'));
    expect(consoleScript.statusCode).toBe(200);
    expect(consoleScript.body).toContain('API key');

    // qrcode and S3, imported on first use: a UPI payment link with its QR image.
    const link = invoke(api, 'POST', '/api/v1/payments/link', { amount: 499, bookingId: 'B12' }, token);
    expect(link.statusCode, link.body).toBe(200);
    expect(json(link).upi_uri).toMatch(/^upi:\/\/pay\?pa=shop@okaxis/);
    expect(json(link).qr_image_url).toMatch(/^http/);

    // The MCP SDK, imported on first use: the tool list over the streamable HTTP transport.
    const tools = invoke(
      api,
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      token,
      { accept: 'application/json, text/event-stream' },
    );
    expect(tools.statusCode, tools.body).toBe(200);
    expect(json(tools).result.tools.map((t: { name: string }) => t.name)).toContain('send_text');
  }, 120_000);

  it('media consumer: OCR worker script, wasm core and language data beside the bundle; it imports', async () => {
    const media = join(outside, 'media');
    await bundleLambda('media', media);
    const files = readdirSync(media);
    expect(files).toContain('worker-entry.cjs');
    expect(existsSync(join(media, 'node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm'))).toBe(
      true,
    );
    expect(
      existsSync(join(media, 'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz')),
    ).toBe(true);
    // Only the LSTM core and the best_int models are shipped.
    expect(existsSync(join(media, 'node_modules/tesseract.js-core/tesseract-core.wasm'))).toBe(false);
    const imported = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(media, 'index.mjs'))}); console.log(typeof m.handler);`,
      ],
      { cwd: '/', encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' } },
    );
    expect(imported.trim()).toBe('function');
  }, 120_000);

  it('events consumer: in the cloud it writes its counters as CloudWatch embedded metrics after each batch', async () => {
    const events = join(outside, 'events');
    await bundleLambda('events', events);
    const sentAt = Date.now() - 1500;
    const event = {
      Records: [
        {
          messageId: 'm1',
          receiptHandle: 'r1',
          body: JSON.stringify({
            kind: 'message.status',
            tenantId: 'no-such-tenant',
            sessionId: 'no-such-session',
            messageId: 'no-such-message',
            status: 'delivered',
            at: Date.now(),
          }),
          attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(sentAt) },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:emf-events',
          awsRegion: 'eu-west-1',
        },
      ],
    };
    const { reply, stdout: out } = runHandler(events, event, {
      METRICS_FORMAT: 'emf',
      SERVICE_NAME: 'events',
      LOG_LEVEL: 'silent',
    });
    const lines = out.split('\n').filter((l) => l.startsWith('{'));
    const emf = lines.map((l) => JSON.parse(l)).find((d) => d._aws && d.Queue === 'emf-events');
    expect(emf, out).toBeDefined();
    expect(emf._aws.CloudWatchMetrics[0].Namespace).toBe(inject('serviceEnv').RESOURCE_PREFIX);
    expect(emf.Service).toBe('events');
    expect(emf.QueueAgeMax).toBeGreaterThanOrEqual(1500);
    // An unknown message's status changes nothing and is done with.
    expect(reply).toEqual({ batchItemFailures: [] });
  }, 120_000);
});
