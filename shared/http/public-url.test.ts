import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env.ts';
import { publicBaseUrl } from './public-url.ts';

const app = new Hono().get('/x', (c) => c.text(publicBaseUrl(c)));
const answer = async () => (await app.request('https://abc123.execute-api.eu-west-1.amazonaws.com/x')).text();

afterEach(() => {
  delete process.env.PUBLIC_BASE_URL;
  resetEnvCache();
});

describe('publicBaseUrl', () => {
  it('is the public name when the stack sets one, never the address API Gateway was called on', async () => {
    process.env.PUBLIC_BASE_URL = 'https://wa.example.com/';
    resetEnvCache();
    expect(await answer()).toBe('https://wa.example.com');
  });

  it('is the address the request came to otherwise (local mode)', async () => {
    resetEnvCache();
    expect(await answer()).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com');
  });
});
