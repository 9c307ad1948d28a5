// A page's `showUnreachable` (issue 37): off by default, a component held behind a down parent reads as plain down;
// turned on through the API, the page says "unreachable: Router is down" beside it in HTML, JSON and Markdown, in the
// page's language; the parent back (or the child up), the note goes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a page showing unreachable components on ${dialect.name}`, () => {
    let h: ApiHarness;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      const monitor = async (key: string, name: string, extra: Record<string, unknown> = {}) => {
        const res = await h.call('POST', '/api/v1/monitors', {
          body: { key, name, type: 'tcp', retries: 0, config: { host: 'a.example', port: 1 }, ...extra },
        });
        expect(res.status).toBe(201);
        ids[key] = (await res.json()).id;
      };
      await monitor('router', 'Router');
      await monitor('shop', 'Shop', { dependsOn: 'router' });
      await monitor('wiki', 'Wiki');
      const page = await h.call('POST', '/api/v1/pages', { body: { slug: 'net', title: 'Net' } });
      expect(await page.json()).toMatchObject({ showUnreachable: false });
      for (const key of ['shop', 'wiki'])
        await h.call('POST', '/api/v1/pages/net/components', { body: { key, name: key.toUpperCase(), monitor: key } });
      await h.pages.start();
    });
    afterAll(async () => {
      await h?.close();
    });

    const result = (key: string, ok: boolean) =>
      h.ingest.record({ monitorId: ids[key] as string, ok, source: 'push', checkedAt: h.clock.now() });
    const form = async (path: string) => {
      await h.pages.refreshAll();
      return (await h.call('GET', `/s/net${path}`, { key: null })).text();
    };
    const components = async () => {
      await h.pages.refreshAll();
      return (await (await h.call('GET', '/s/net/status.json', { key: null })).json()).components as {
        name: string;
        state: string;
        unreachable?: { parent: string };
      }[];
    };

    it('shows a component behind a down parent as plain down while the page does not opt in', async () => {
      await result('router', false);
      await result('shop', false);
      await result('wiki', false);
      await vi.waitFor(async () => expect((await components()).map((c) => c.state)).toEqual(['down', 'down']));
      expect((await components()).some((c) => 'unreachable' in c)).toBe(false);
      expect(await form('')).not.toContain('data-testid="unreachable"');
    });

    it('says "unreachable: Router is down" in every form once the page opts in, only of the held component', async () => {
      const patched = await h.call('PATCH', '/api/v1/pages/net', { body: { showUnreachable: true } });
      expect(await patched.json()).toMatchObject({ showUnreachable: true });
      await vi.waitFor(async () =>
        expect(await components()).toEqual([
          expect.objectContaining({ name: 'SHOP', state: 'down', unreachable: { parent: 'Router' } }),
          expect.not.objectContaining({ unreachable: expect.anything() }),
        ]),
      );
      const html = await form('');
      expect(html).toContain('<p class="check-note" data-testid="unreachable">unreachable: Router is down</p>');
      expect(html.match(/data-testid="unreachable"/g)).toHaveLength(1);
      expect(await form('/status.md')).toMatch(/\| SHOP \| Down since [^|]* \(unreachable: Router is down\) \|/);
    });

    it("says it in the page's language", async () => {
      expect(await form('?lang=de')).toContain('nicht erreichbar: Router ist ausgefallen');
      expect(await form('/status.md?lang=fr')).toContain('injoignable : Router est en panne');
    });

    it('drops the note once the parent is back, the child still down, and for a child up behind a down parent', async () => {
      h.clock.advance(60_000);
      await result('router', true);
      await vi.waitFor(async () => expect((await components())[0]).not.toHaveProperty('unreachable'));
      expect((await components())[0]?.state).toBe('down');
      await result('router', false);
      await result('shop', true);
      await vi.waitFor(async () => expect((await components())[0]?.state).toBe('operational'));
      expect((await components())[0]).not.toHaveProperty('unreachable');
    });
  });
}
