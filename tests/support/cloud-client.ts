import { WhatsAppAPI } from 'whatsapp-api-js';
import { baseUrl } from './client.ts';

/**
 * The real Cloud API client (whatsapp-api-js) with its Graph requests pointed at this service:
 * `/{phone}/media` and `/{phone}/messages` live under `/api/messages`, a media object `/{media-id}`
 * under `/api/media`. A URL of this service (a media object's `url`) is fetched as it is.
 */
export function cloudClient(token: string) {
  const redirect: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin === new URL(baseUrl()).origin) return fetch(url, init);
    const path = url.pathname.replace(/^\/v[\d.]+\//, '/');
    const base = /^\/[^/]+\/(media|messages)$/.test(path) ? '/api/messages' : '/api/media';
    return fetch(`${baseUrl()}${base}${path}${url.search}`, init);
  };
  return new WhatsAppAPI({ token, v: 'v21.0', secure: false, ponyfill: { fetch: redirect } });
}
