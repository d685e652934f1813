import { describe, expect, it } from 'vitest';
import { banner } from '../../scripts/local/banner.ts';

describe('the npm start banner', () => {
  const facts = {
    baseUrl: 'http://127.0.0.1:3000',
    driver: 'simulator',
    adminApiKey: 'adm_0123456789abcdef0123456789abcdef',
    dataDir: '.data',
  };

  it('shows an admin key local mode generated, and where it is stored', () => {
    const text = banner({ ...facts, generatedAdminKey: true });
    expect(text).toContain(`Admin key  ${facts.adminApiKey}  (generated, stored in .data/secrets.json)`);
  });

  it('never shows a key supplied in ADMIN_API_KEY', () => {
    const text = banner({ ...facts, generatedAdminKey: false });
    expect(text).not.toContain(facts.adminApiKey);
    expect(text).toContain('Admin key  (from ADMIN_API_KEY, not shown)');
  });
});
