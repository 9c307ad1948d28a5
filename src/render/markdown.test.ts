// The Markdown form of a page: every part of the snapshot in words, escaped user text, the same bytes every time.
import { describe, expect, it } from 'vitest';
import {
  activeIncidentSnapshot,
  hostileSnapshot,
  largeSnapshot,
  maintenanceSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
  SNAPSHOT_FIXTURES,
} from '../../test/fakes/snapshots.js';
import { escapeMarkdown, renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('answers text/markdown in UTF-8', () => {
    expect(renderMarkdown(operationalSnapshot()).contentType).toBe('text/markdown; charset=utf-8');
  });

  it('opens with the page title as the one H1, its description and the overall state in words', () => {
    const { body } = renderMarkdown(operationalSnapshot());
    expect(body.startsWith('# Blockhaven Network\n\nMinecraft survival, creative and minigames since 2019.\n')).toBe(
      true,
    );
    expect(body.match(/^# /gm)).toHaveLength(1);
    expect(body).toContain('**Overall status: Operational** — All systems operational');
    expect(body).toContain('Page: <https://status.blockhaven.example/>');
  });

  it('says a partial outage in words, with the component down and since when', () => {
    const { body } = renderMarkdown(partialOutageSnapshot());
    expect(body).toContain('**Overall status: Degraded** — Partial outage: 1 of 6 components down');
    expect(body).toMatch(
      /\| Survival \| Down since 20 Nov 2026, 13:42 UTC \| \d+\.\d{2,3}% \| \d+\.\d{2,3}% \|.*connect ECONNREFUSED/,
    );
  });

  it('lists components by group in tables with their state word, 30 and 90 day uptime and live data', () => {
    const { body } = renderMarkdown(operationalSnapshot());
    expect(body.indexOf('### Game servers')).toBeLessThan(body.indexOf('### Community'));
    expect(body.indexOf('## Components')).toBeLessThan(body.indexOf('### Game servers'));
    expect(body).toContain('| Component | Status | Uptime 30 d | Uptime 90 d | Live |');
    const lobby = body.split('\n').find((line) => line.startsWith('| Lobby'));
    expect(lobby).toMatch(/^\| Lobby — play\.blockhaven\.example \| Operational \| 100\.00% \| 99\.\d{2,3}% \| /);
    expect(lobby).toContain('42 / 500 players; latency 23 ms; version Velocity 3.4 (1.8–1.21.4)');
    expect(lobby).toContain('MOTD: Blockhaven Network Survival · Creative · Minigames');
    expect(body).toMatch(/\| Discord bot \| Operational \| [\d.]+% \| [\d.]+% \| — \|/);
  });

  it('shows "no data" for a component without checks, and every state by its word', () => {
    const { body } = renderMarkdown(largeSnapshot());
    expect(body).toMatch(/\| Service 45 \| No data since [^|]+\| [\d.]+% \|/);
    for (const word of ['Operational', 'Degraded', 'Down', 'No data']) expect(body).toContain(`| ${word}`);
    expect(renderMarkdown(maintenanceSnapshot()).body).toContain(
      '| Creative | Under maintenance since 20 Nov 2026, 13:30 UTC |',
    );
    const noData = hostileSnapshot();
    noData.components[0]!.uptime = { '24h': null, '7d': null, '30d': null, '90d': null };
    expect(renderMarkdown(noData).body).toMatch(/ \| Operational \| no data \| no data \|/);
  });

  it("gives active incidents with their updates newest first, in the page's time zone", () => {
    const { body } = renderMarkdown(activeIncidentSnapshot());
    const section = body.slice(body.indexOf('## Active incidents'), body.indexOf('## Components'));
    expect(section).toContain('### Lag spikes on Survival');
    expect(section).toContain('Status: Monitoring · Minor impact · started 20 Nov 2026, 13:10 UTC');
    expect(section).toContain('Affects: Survival');
    const monitoring = section.indexOf('- 20 Nov 2026, 14:00 UTC — **Monitoring**');
    const identified = section.indexOf('- 20 Nov 2026, 13:35 UTC — **Identified**');
    const investigating = section.indexOf('- 20 Nov 2026, 13:10 UTC — **Investigating**');
    expect(monitoring).toBeGreaterThan(0);
    expect(monitoring).toBeLessThan(identified);
    expect(identified).toBeLessThan(investigating);
    // A message of two lines stays inside its list item.
    expect(section).toContain(
      '  A runaway redstone clock near spawn was pinning the main thread.\n  It has been removed.',
    );
  });

  it('lists recent resolved incidents with their duration, or says there were none', () => {
    const { body } = renderMarkdown(activeIncidentSnapshot());
    expect(body).toContain('## Recent incidents (last 14 days)');
    expect(body).toContain('### Players disconnected from every server');
    expect(body).toContain('resolved 17 Nov 2026, 12:47 UTC (lasted 42 min)');
    expect(renderMarkdown(operationalSnapshot()).body).toContain('_No incidents in the last 14 days._');
    expect(renderMarkdown(operationalSnapshot()).body).not.toContain('## Active incidents');
  });

  it('never says "no incidents" under an active one: the history then says none were resolved', () => {
    const body = renderMarkdown({ ...activeIncidentSnapshot(), recentIncidents: [] }).body;
    expect(body).toContain('## Active incidents');
    expect(body).toContain('_No resolved incidents in the last 14 days._');
    expect(body).not.toContain('No incidents in the last 14 days');
  });

  it('lists maintenance in progress and upcoming', () => {
    const { body } = renderMarkdown(maintenanceSnapshot());
    expect(body).toContain('## Maintenance');
    expect(body).toContain(
      '### In progress\n\n- **Weekly world backup and restart** — 20 Nov 2026, 13:30 UTC to 20 Nov 2026, 14:15 UTC. Repeats: Every Friday at 14:30 (Europe/Berlin), 45 min. Affects: Creative.',
    );
    expect(body).toContain(
      '### Upcoming\n\n- **Database upgrade** — 22 Nov 2026, 20:05 UTC to 22 Nov 2026, 22:05 UTC. Affects: Survival, Creative, Website.',
    );
    expect(renderMarkdown(operationalSnapshot()).body).not.toContain('## Maintenance');
  });

  it('gives the players online and when it was generated', () => {
    const { body } = renderMarkdown(operationalSnapshot());
    expect(body).toContain('Players online: 150 of 800');
    expect(body.trimEnd().endsWith('Generated at 20 Nov 2026, 14:05 UTC. Times are in UTC.')).toBe(true);
  });

  it('escapes user text so it cannot format, link, inject HTML or break a table', () => {
    const { body } = renderMarkdown(hostileSnapshot());
    expect(body).toContain('| \\*bold\\* \\| pipe — \\_under\\_ \\~strike\\~ \\<b\\>html\\</b\\> | Operational |');
    expect(body).toContain('# Bob\'s "Best" \\<Server\\> & Co\n');
    expect(body).toContain('### \\`code\\` \\[link\\](javascript:alert(1))');
    expect(body).not.toMatch(/(?<!\\)<(img|script|svg|b>|!--)/);
    expect(body).not.toMatch(/(?<!\\)\[(click|img|link)(?<!\\)\]/);
    // Each table row has exactly the header's six cell borders once escaped pipes are set aside.
    const rows = body.split('\n').filter((line) => line.startsWith('| '));
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(7);
    // Lines of a message cannot become a list, a quote or a rule.
    expect(body).toContain('  1\\. one\n  \\> quote\n  \\---');
    expect(body).toContain(
      'Repeats: RRULE \\<img src=x onerror=alert(13)\\> \\*x\\* \\[y\\](javascript:alert(13)) \\| z.',
    );
  });

  it('removes line breaks and control characters from one-line text', () => {
    expect(escapeMarkdown('a\n\n# b\u0007 *c*')).toBe('a \\# b \\*c\\*');
    // An escaped "#" already stops a numeric entity.
    expect(escapeMarkdown('&amp; & &#60;')).toBe('\\&amp; & &\\#60;');
  });

  it('renders the same snapshot to the same bytes', () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES)) {
      const a = renderMarkdown(make()).body;
      const b = renderMarkdown(structuredClone(make())).body;
      expect(a).toBe(b);
    }
  });
});
