import { describe, expect, it } from 'vitest';
import { expectInvalid, expectNotFound, tenant } from '../../support/in-process.ts';

/** /api/templates in-process (functions/api/templates/). */
describe('templates routes', () => {
  it('creates, reads, lists and deletes a template in its shape', async () => {
    const t = await tenant('templates');
    const created = await t.api.post('/api/templates', {
      name: 'welcome',
      body: 'Hello {{1}}, see you at {{2}}',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.template).toMatchObject({ name: 'welcome', body: 'Hello {{1}}, see you at {{2}}' });
    expect(created.body.template.placeholders.length).toBe(2);
    const one = await t.api.get('/api/templates/welcome');
    expect(one.status).toBe(200);
    expect(one.body.template.name).toBe('welcome');
    const list = await t.api.get('/api/templates');
    expect(list.body.templates.map((x: { name: string }) => x.name)).toEqual(['welcome']);
    const del = await t.api.delete('/api/templates/welcome');
    expect(del.status).toBe(200);
    expectNotFound(await t.api.get('/api/templates/welcome'));
  });

  it('names the bad field', async () => {
    const t = await tenant('templates-bad');
    expectInvalid(await t.api.post('/api/templates', { body: 'hi' }), 'name');
    expectInvalid(await t.api.post('/api/templates', { name: 'x' }), 'body');
    expectInvalid(
      await t.api.post('/api/templates', { name: 'x', body: 'hi', buttons: [{ id: 'a' }] }),
      'buttons.0.title',
    );
  });

  it("answers 404 for another tenant's template", async () => {
    const [a, b] = await Promise.all([tenant('templates-a'), tenant('templates-b')]);
    expect((await a.api.post('/api/templates', { name: 'mine', body: 'hi' })).status).toBe(201);
    expectNotFound(await b.api.get('/api/templates/mine'));
    expectNotFound(await b.api.delete('/api/templates/mine'));
    expect((await b.api.get('/api/templates')).body.templates).toEqual([]);
    expect((await a.api.get('/api/templates/mine')).status).toBe(200);
  });
});
