import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Secrets Manager for `npm start` and the tests: the subset of the service's JSON 1.1
 * protocol the product calls (CreateSecret, PutSecretValue, GetSecretValue, DeleteSecret), so the
 * product's own `@aws-sdk/client-secrets-manager` calls run unchanged against it through
 * `AWS_ENDPOINT_URL_SECRETS_MANAGER`. With `file` the secrets persist there (under DATA_DIR);
 * without it they live as long as the process. Local tooling only: no bundle contains it.
 */

interface Secret {
  name: string;
  arn: string;
  value: string;
  versionId: string;
  createdDate: number;
}

class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY = 128 * 1024;
const ARN_PREFIX = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:';

export interface LocalSecretsManager {
  url: string;
  stop(): Promise<void>;
}

export async function startSecretsManager(opts: { file?: string } = {}): Promise<LocalSecretsManager> {
  const secrets = new Map<string, Secret>();
  if (opts.file && existsSync(opts.file)) {
    for (const s of JSON.parse(readFileSync(opts.file, 'utf8')) as Secret[]) secrets.set(s.name, s);
  }
  const persist = () => {
    if (!opts.file) return;
    const tmp = `${opts.file}.tmp`;
    writeFileSync(tmp, JSON.stringify([...secrets.values()]), { mode: 0o600 });
    renameSync(tmp, opts.file);
  };
  const find = (id: unknown): Secret => {
    const s =
      typeof id === 'string'
        ? (secrets.get(id) ?? [...secrets.values()].find((x) => x.arn === id))
        : undefined;
    if (!s)
      throw new AwsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return s;
  };
  const stringValue = (v: unknown): string => {
    if (typeof v !== 'string') throw new AwsError('InvalidParameterException', 'SecretString is required.');
    if (Buffer.byteLength(v) > 65_536)
      throw new AwsError('InvalidParameterException', 'SecretString too long.');
    return v;
  };
  const answer = (s: Secret) => ({ ARN: s.arn, Name: s.name, VersionId: s.versionId });

  const operations: Record<string, (b: Record<string, unknown>) => unknown> = {
    CreateSecret(b) {
      const name = b.Name;
      if (typeof name !== 'string' || !/^[A-Za-z0-9/_+=.@-]{1,512}$/.test(name))
        throw new AwsError('InvalidParameterException', 'Invalid name.');
      if (secrets.has(name))
        throw new AwsError(
          'ResourceExistsException',
          `The operation failed because the secret ${name} already exists.`,
        );
      const s: Secret = {
        name,
        arn: `${ARN_PREFIX}${name}-${randomUUID().slice(0, 6)}`,
        value: stringValue(b.SecretString),
        versionId: randomUUID(),
        createdDate: Date.now() / 1000,
      };
      secrets.set(name, s);
      persist();
      return answer(s);
    },
    PutSecretValue(b) {
      const s = find(b.SecretId);
      s.value = stringValue(b.SecretString);
      s.versionId = randomUUID();
      persist();
      return answer(s);
    },
    GetSecretValue(b) {
      const s = find(b.SecretId);
      return {
        ...answer(s),
        SecretString: s.value,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: s.createdDate,
      };
    },
    DeleteSecret(b) {
      const s = find(b.SecretId);
      secrets.delete(s.name);
      persist();
      return { ARN: s.arn, Name: s.name, DeletionDate: Date.now() / 1000 };
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown, type?: string) => {
      res.writeHead(status, {
        'content-type': 'application/x-amz-json-1.1',
        ...(type ? { 'x-amzn-errortype': type } : {}),
      });
      res.end(JSON.stringify(body));
    };
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of req) {
        size += (c as Buffer).length;
        if (size > MAX_BODY) throw new AwsError('InvalidRequestException', 'Request too large.');
        chunks.push(c as Buffer);
      }
      const target = String(req.headers['x-amz-target'] ?? '');
      const op = operations[target.replace(/^secretsmanager\./, '')];
      if (req.method !== 'POST' || !target.startsWith('secretsmanager.') || !op)
        throw new AwsError('UnknownOperationException', `Not offered locally: ${target || req.method}`);
      const body = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};
      send(200, op(body));
    } catch (err) {
      const e = err instanceof AwsError ? err : new AwsError('InternalServiceError', (err as Error).message);
      send(e.type === 'InternalServiceError' ? 500 : 400, { __type: e.type, message: e.message }, e.type);
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
