/**
 * What the generated OpenAPI document adds for client generators, in one place: routes are added in
 * many folders, and a rule applied here holds for the ones nobody has written yet.
 */

type Operation = {
  operationId?: string;
  responses?: Record<string, unknown>;
  [key: string]: unknown;
};
type Document = {
  paths?: Record<string, Record<string, unknown>>;
  components?: { responses?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Words of a path segment: `upload-send` → upload, send; `openapi.json` → openapi, json. */
const words = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The operation's name when its route gives none: the method, then the path's words with `/api`
 * left out and each parameter as `By<Name>`. `GET /api/sessions/{sessionId}/qr` →
 * `getSessionsBySessionIdQr`. It changes only when the method or the path does, so a generated
 * client's names are as stable as the API.
 */
export function operationId(method: string, path: string): string {
  const parts = path
    .split('/')
    .filter(Boolean)
    .filter((s, i) => !(i === 0 && s === 'api'))
    .flatMap((s) => {
      const param = s.match(/^\{(.+)\}$/)?.[1];
      if (param) return ['By', ...words(param).map(capital)];
      return words(s).map((w) => capital(w.toLowerCase()));
    });
  return method.toLowerCase() + parts.join('');
}

/** Every request can meet this before our code runs: the cloud stage's throttle (infra/api.ts). */
const THROTTLED = 'Throttled';
const throttled = {
  description:
    'Too many requests: the API Gateway stage throttle (cloud only; `apiRateLimit`/`apiBurstLimit`, docs/deploy.md). The body is `{"message":"Too Many Requests"}`.',
  content: {
    'application/json': {
      schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  },
};

/**
 * The document with an `operationId` on every operation (a route's own wins) and the throttle's
 * 429 on every operation that does not declare its own 429. Throws when two operations would share
 * an id: a route then names itself.
 */
export function forGenerators<D extends object>(document: D): D {
  const doc = document as Document;
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const op = value as Operation;
      op.operationId ??= operationId(method, path);
      const where = `${method.toUpperCase()} ${path}`;
      const other = seen.get(op.operationId);
      if (other) throw new Error(`operationId ${op.operationId} of ${where} is already ${other}'s`);
      seen.set(op.operationId, where);
      op.responses ??= {};
      op.responses['429'] ??= { $ref: `#/components/responses/${THROTTLED}` };
    }
  }
  doc.components ??= {};
  doc.components.responses = { ...doc.components.responses, [THROTTLED]: throttled };
  return document;
}
