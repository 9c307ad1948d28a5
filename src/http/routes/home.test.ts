// GET / on Warden's own address: the dashboard link and the public status pages, never a protected one; a page's
// custom domain still serves that page at /.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import { dialects } from '../../../test/store-dialects.js';

const YAML = `
organization: { key: acme, name: Acme }
pages:
  - { slug: survival, title: Survival, description: Our survival server }
  - { slug: creative, title: Creative, customDomain: status.creative.test }
  - { slug: staff, title: Staff only, password: hunter2222 }
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`GET / on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, YAML);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('links to the dashboard and to each public page, by title, not to password-protected ones', async () => {
      const res = await h.request('/');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain('href="/app/"');
      expect(html).toMatch(/<a href="\/s\/creative">Creative<\/a>.*<a href="\/s\/survival">Survival<\/a> — Our survival server/s);
      expect(html).not.toContain('/s/staff');
    });

    it('serves the page itself at / on its custom domain', async () => {
      const html = await (await h.request('/', { host: 'status.creative.test' })).text();
      expect(html).toContain('<h1>Creative</h1>');
      expect(html).not.toContain('href="/app/"');
    });
  });
