import { describe, expect, it } from 'vitest';
import { must } from '../../tests/support/must.ts';
import { forGenerators, operationId } from './openapi.ts';

describe('operationId', () => {
  it('is the method then the path in camelCase, without /api, parameters as By<Name>', () => {
    expect(operationId('get', '/api/sessions/{sessionId}/qr')).toBe('getSessionsBySessionIdQr');
    expect(operationId('POST', '/api/messages/{phoneNumberId}/upload-send')).toBe(
      'postMessagesByPhoneNumberIdUploadSend',
    );
    expect(operationId('get', '/api/public/portal/{portal_id}/live-messages')).toBe(
      'getPublicPortalByPortalIdLiveMessages',
    );
    expect(operationId('get', '/openapi.json')).toBe('getOpenapiJson');
    expect(operationId('get', '/view/messages/v1')).toBe('getViewMessagesV1');
    expect(operationId('delete', '/api/v1/payments/settings')).toBe('deleteV1PaymentsSettings');
  });
});

describe('forGenerators', () => {
  const ok = { 200: { description: 'OK' } };

  it("names each operation, keeps a route's own name, and adds the throttle's 429 where none is declared", () => {
    const doc: { paths: Record<string, object>; components?: { responses?: object } } = forGenerators({
      paths: {
        '/api/sessions': {
          get: { responses: { ...ok } },
          post: { operationId: 'createSession', responses: { ...ok, 429: { description: 'quota' } } },
          parameters: [],
        },
      },
    });
    const item = doc.paths['/api/sessions'] as Record<string, { operationId?: string; responses: object }>;
    const get = must(item.get, 'the GET operation');
    const post = must(item.post, 'the POST operation');
    expect(get.operationId).toBe('getSessions');
    expect(post.operationId).toBe('createSession');
    expect(get.responses).toMatchObject({ 429: { $ref: '#/components/responses/Throttled' } });
    expect(post.responses).toMatchObject({ 429: { description: 'quota' } });
    expect(doc.components?.responses).toHaveProperty('Throttled');
  });

  it('refuses two operations with one name', () => {
    expect(() =>
      forGenerators({
        paths: { '/api/a-b': { get: { responses: ok } }, '/api/a/b': { get: { responses: ok } } },
      }),
    ).toThrow('operationId getAB of GET /api/a/b is already GET /api/a-b');
  });
});
