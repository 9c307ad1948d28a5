// Who is online over HTTP: on a page that shows player names, the HTML page, the widget and the JSON list them
// (escaped, capped); on a page that does not, no public form does; RSS, Markdown, llms.txt and MCP never do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';
import { until } from '../../../../test/until.js';
import type { Snapshot } from '../../../domain/snapshot.js';
import { updatePage } from '../../../services/pages/write.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: source, config: { host: 127.0.0.1, port: 27015, playerNames: true } }
pages:
  - slug: shown
    title: Shown
    showPlayerNames: true
    components: [{ name: Lobby, monitor: lobby }]
  - slug: hidden
    title: Hidden
    components: [{ name: Lobby, monitor: lobby }]
`;
const HOSTILE = '<script>alert("x")</script>';
const NAMES = [HOSTILE, ...Array.from({ length: 499 }, (_, n) => `Gamer${n}`)];
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`who is online over HTTP on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        data: { players: 500, maxPlayers: 512, playerNames: NAMES },
        source: 'edge',
      });
    });
    afterAll(() => h.close());

    const text = async (path: string) => (await h.request(path)).text();

    it('lists the names on the HTML page in a disclosure, escaped and capped at 100', async () => {
      const html = await text('/s/shown');
      const list = /<details class="who" id="players-[^"]+" data-testid="player-names">(.*?)<\/details>/.exec(
        html,
      )?.[1];
      expect(list).toMatch(/^<summary>500 online<\/summary><ul class="who-list" aria-label="Who is online">/);
      expect(list?.match(/<li>/g)).toHaveLength(100);
      expect(list).toContain('<li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</li>');
      expect(list).toContain('<p class="who-note">Showing 100 of 500</p>');
      expect(html).not.toContain(HOSTILE);
      expect(html).not.toContain('Gamer99<');
    });

    it('gives the names in the JSON snapshot as live.playerNames', async () => {
      const snapshot = (await (await h.request('/s/shown/status.json')).json()) as Snapshot;
      const names = snapshot.components[0]?.live?.playerNames;
      expect(names).toHaveLength(100);
      expect(names?.[0]).toBe(HOSTILE);
    });

    it('lists them in the widget of the component and the full widget, escaped', async () => {
      for (const path of ['/s/shown/embed?variant=full', '/s/shown/embed?component=Lobby']) {
        const html = await text(path);
        expect(html, path).toContain('data-testid="player-names"><summary>500 online</summary>');
        expect(html, path).toContain('<li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</li>');
        expect(html, path).not.toContain(HOSTILE);
      }
    });

    it('shows no names anywhere public on a page that does not show them', async () => {
      for (const form of [
        '',
        '/status.json',
        '/status.md',
        '/feed.xml',
        '/embed?variant=full',
        '/embed?component=Lobby',
      ]) {
        const body = await text(`/s/hidden${form}`);
        expect(body, form).not.toContain('Gamer0');
        expect(body, form).not.toContain('alert(');
        expect(body, form).not.toContain('playerNames');
      }
      const html = await text('/s/hidden');
      expect(html).toContain('500 / 512');
      expect(html).not.toContain('class="who"');
    });

    it('never puts the names in RSS, Markdown, llms.txt or MCP, even on a page that shows them', async () => {
      for (const path of ['/s/shown/feed.xml', '/s/shown/status.md', '/llms.txt', '/llms-full.txt'])
        expect(await text(path), path).not.toContain('Gamer0');
      const call = await h.request('/mcp', {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_status', arguments: { slug: 'shown' } },
        }),
      });
      const answer = await call.text();
      expect(answer).toContain('"slug":"shown"');
      expect(answer).not.toContain('Gamer0');
      expect(answer).not.toContain('playerNames');
    });

    it('stops showing the names once the page turns the setting off, and shows them again when on', async () => {
      const ctx = { ...h.context, organizationId: h.organizationId, writer: 'config' as const };
      const listed = async () => (await text('/s/shown')).includes('class="who"');
      await updatePage(ctx, { slug: 'shown', showPlayerNames: false });
      await until('the names to go', async () => !(await listed()), 5000);
      expect(await text('/s/shown/status.json')).not.toContain('Gamer0');
      await updatePage(ctx, { slug: 'shown', showPlayerNames: true });
      await until('the names to come back', listed, 5000);
    });
  });
