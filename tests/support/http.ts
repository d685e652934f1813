/** Vitest-free: tests, benches and child-process checks share it. */

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** How a JSON client reaches the service: over a socket (`fetch`) or in-process (`app.request`). */
export type Transport = (path: string, init: RequestInit) => Promise<Response>;

/**
 * A small JSON client over `send` (and optionally a Bearer token): sends a JSON body, answers the
 * status, the parsed JSON body (or the text when it is not JSON) and the headers.
 */
export function jsonClientOver(send: Transport, token?: string) {
  const call = async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> => {
    const res = await send(path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    request: call,
    get: <T = any>(path: string, headers?: Record<string, string>) =>
      call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>('POST', path, body, headers),
    put: <T = any>(path: string, body?: unknown) => call<T>('PUT', path, body),
    patch: <T = any>(path: string, body?: unknown) => call<T>('PATCH', path, body),
    delete: <T = any>(path: string) => call<T>('DELETE', path),
  };
}

/** A small JSON client for one base URL (and optionally a Bearer token). */
export function jsonClient(base: string, token?: string) {
  return jsonClientOver((path, init) => fetch(`${base}${path}`, init), token);
}

/** For scripts that pass the token per call: `(method, path, token?, body?)` → the response. */
export function jsonCaller(base: string) {
  return <T = any>(method: string, path: string, token?: string, body?: unknown) =>
    jsonClient(base, token).request<T>(method, path, body);
}
