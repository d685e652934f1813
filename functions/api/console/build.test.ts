import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildConsole } from './build.ts';

describe('the console build', () => {
  it('is one script and one style sheet, within the 200 KB compressed budget, loading nothing from elsewhere', async () => {
    const assets = await buildConsole();
    expect(gzipSync(assets['app.js']).length).toBeLessThan(200 * 1024);
    expect(assets['app.js']).toContain('API key');
    expect(assets['app.css'].length).toBeGreaterThan(0);
    // No CDN or web font: every URL the page uses is a path on this origin.
    for (const text of Object.values(assets)) expect(text).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});
