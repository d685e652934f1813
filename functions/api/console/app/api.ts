/** The console's only way to the service: the public API, with the signed-in user's token. */

const TOKEN_KEY = 'console.token';

/** An answer that was not a success, with the API's own `message` and `code`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The token lives in this tab's session storage: gone when the tab closes, never in a URL. */
export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  save: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
  /**
   * Whether the token was minted from the admin key (its `scope` claim), to show the admin's pages.
   * Only what the page shows depends on it: the API checks the scope on every admin call.
   */
  isAdmin: () => {
    const payload = sessionStorage.getItem(TOKEN_KEY)?.split('.')[1];
    if (!payload) return false;
    try {
      const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
      return (JSON.parse(json) as { scope?: string }).scope === 'admin';
    } catch {
      return false;
    }
  },
};

/** Called when the API refuses the token (expired or revoked): the console goes back to sign-in. */
let onSignedOut: (reason: string) => void = () => undefined;
export function whenSignedOut(fn: (reason: string) => void) {
  onSignedOut = fn;
}

async function errorOf(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => undefined)) as
    | { error?: { code?: string; message?: string } }
    | undefined;
  return new ApiError(
    body?.error?.message ?? `${res.status} ${res.statusText}`,
    res.status,
    body?.error?.code ?? 'HTTP_ERROR',
  );
}

/** A request with the token; answers the raw response when it succeeded, throws `ApiError` otherwise. */
export async function request(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const token = session.token();
  // A form (a file upload) goes as multipart, its boundary set by the browser; anything else as JSON.
  const form = body instanceof FormData;
  const res = await fetch(path, {
    method,
    headers: {
      ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  if (res.ok) return res;
  const err = await errorOf(res);
  if (res.status === 401 && token) {
    session.clear();
    onSignedOut(err.message);
  }
  throw err;
}

/** A JSON request; answers the parsed body. */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await request(method, path, body, { accept: 'application/json' });
  return (await res.json()) as T;
}

/** Exchanges an API key for a token (POST /api/auth/token) and keeps it. */
export async function signIn(apiKey: string): Promise<void> {
  const res = await fetch('/api/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  if (!res.ok) throw await errorOf(res);
  const { token } = (await res.json()) as { token: string };
  session.save(token);
}

/** The message to show for anything thrown: the API's own message where there is one. */
export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export interface Session {
  sessionId: string;
  mobid: string;
  mobile_number: string | null;
  name: string | null;
  status: string;
  dbStatus: string;
  method: string;
  reason: string | null;
  restriction: { reason: string; until: string | null; detail: string | null } | null;
  reconnectAttempt: number;
  nextRetryAt: string | null;
  lastDisconnect: { code: number | null; reason: string; at: string } | null;
  createdAt: string;
}

export interface ViewMessage {
  id: string;
  from: string;
  chat: string;
  senderName: string | null;
  text: string;
  timestamp: number;
  fromMe: boolean;
  direction: 'inbound' | 'outbound';
  sessionId: string;
  type: string;
  status: string;
  reason: string | null;
  mediaUrl: string | null;
  mimetype: string | null;
  fileName: string | null;
  transcription: string | null;
  ocrText: string | null;
}
