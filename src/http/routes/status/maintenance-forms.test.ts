// Recurring maintenance on the public page through the app (issue 35): the JSON, Markdown and HTML forms say how a
// window repeats beside its occurrence in progress or next; a one-off window says nothing of the kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { Snapshot } from '../../../domain/snapshot.js';

// The harness starts on Friday 2026-11-20, 12:00 UTC: 13:00 in Berlin, when the weekly restart is on.
const FRIDAY_NOON = Date.UTC(2026, 10, 20, 12);
const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Web, type: http, config: { url: "http://127.0.0.1:1/" } }
pages:
  - slug: acme
    title: Acme Network
    components:
      - { name: Lobby, monitor: lobby }
      - { name: Website, monitor: web }
    maintenance:
      - key: restart
        title: Weekly restart
        startsAt: 2026-11-01T00:00:00Z
        components: [Lobby]
        recurrence: [{ cron: "0 13 * * 5", timezone: Europe/Berlin, durationMin: 60 }]
      - key: database
        title: Database move
        startsAt: 2026-11-22T02:00:00Z
        endsAt: 2026-11-22T03:00:00Z
        monitors: [web]
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`recurring maintenance on the public page on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG, FRIDAY_NOON);
    });
    afterAll(() => h.close());

    it('gives how a window repeats in the JSON form, with its occurrence in progress', async () => {
      const snapshot = (await (await h.request('/s/acme/status.json')).json()) as Snapshot;
      expect(snapshot.maintenance.active).toEqual([
        expect.objectContaining({
          title: 'Weekly restart',
          status: 'in_progress',
          startsAt: FRIDAY_NOON,
          endsAt: FRIDAY_NOON + 3_600_000,
          repeats: 'Every Friday at 13:00 (Europe/Berlin), 1 h',
          components: [expect.objectContaining({ name: 'Lobby' })],
        }),
      ]);
      // A one-off window covering a monitor: its component is named, and it does not repeat.
      expect(snapshot.maintenance.upcoming).toEqual([
        expect.objectContaining({
          title: 'Database move',
          repeats: null,
          components: [expect.objectContaining({ name: 'Website' })],
        }),
      ]);
    });

    it('says it in the Markdown and HTML forms', async () => {
      const markdown = await (await h.request('/s/acme/status.md')).text();
      expect(markdown).toMatch(
        /- \*\*Weekly restart\*\* — [^\n]*\. Repeats: Every Friday at 13:00 \(Europe\/Berlin\), 1 h\. Affects: Lobby\./,
      );
      expect(markdown).not.toMatch(/Database move[^\n]*Repeats/);
      const html = await (await h.request('/s/acme')).text();
      expect(html).toContain('<p class="incident-meta">Repeats: Every Friday at 13:00 (Europe/Berlin), 1 h</p>');
      expect(html.match(/Repeats:/g)).toHaveLength(1);
    });
  });
