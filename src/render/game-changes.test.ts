// A page's game changes in its forms: the HTML announcement, the Markdown list and the RSS items (stable guids), only
// when the snapshot has them (a page that announces them), in the reader's language.
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { FIXTURE_NOW, MINUTE } from '../../test/fakes/snapshot-parts.js';
import { operationalSnapshot } from '../../test/fakes/snapshots.js';
import type { Snapshot } from '../domain/snapshot.js';
import { renderFeed } from './feed.js';
import { renderHtmlPage } from './html-page.js';
import { translator } from './i18n/index.js';
import { renderMarkdown } from './markdown.js';

function announcing(): Snapshot {
  return {
    ...operationalSnapshot(),
    gameChanges: [
      {
        id: 'evt_map',
        field: 'map',
        from: 'de_inferno',
        to: 'de_dust2',
        at: FIXTURE_NOW - 5 * MINUTE,
        components: [{ id: 'survival', name: 'Survival' }],
      },
      {
        id: 'evt_wipe',
        field: 'wipe',
        from: '2026-11-13T18:00:00.000Z',
        to: '2026-11-20T12:00:00.000Z',
        at: FIXTURE_NOW - 2 * 60 * MINUTE,
        components: [{ id: 'rust', name: 'Rust <Main>' }],
      },
    ],
  };
}

const HTML_OPTIONS = { jsonPath: '/status.json', markdownPath: '/status.md', refreshSeconds: 0 };

describe('game changes on a page', () => {
  it('announces them on the HTML page, escaped, each with how long ago, newest first', () => {
    const { body } = renderHtmlPage(announcing(), HTML_OPTIONS);
    expect(body).toContain('<h2 id="game-changes-title">Server changes</h2>');
    const section = body.slice(body.indexOf('game-changes-title'));
    expect(section).toContain(
      '<li>Map changed to de_dust2 on Survival <span class="was">(was de_inferno)</span> · <time datetime="2026-11-20T14:00:00Z" data-local data-relative>',
    );
    expect(section).toContain('<li>Rust &lt;Main&gt; was wiped · <time');
    expect(section.indexOf('de_dust2')).toBeLessThan(section.indexOf('wiped'));
  });

  it('shows nothing of them on a page that does not announce them', () => {
    const snapshot = operationalSnapshot();
    expect(renderHtmlPage(snapshot, HTML_OPTIONS).body).not.toContain('game-changes-title');
    expect(renderMarkdown(snapshot).body).not.toContain('Server changes');
    expect(renderFeed(snapshot, { selfUrl: 'https://x.example/feed.xml' }).body).not.toContain('game-change');
  });

  it('lists them in Markdown, in the reader’s language', () => {
    expect(renderMarkdown(announcing()).body).toContain(
      '## Server changes\n\n- Map changed to de\\_dust2 on Survival (was de\\_inferno) · 20 Nov 2026, 14:00 UTC\n- Rust \\<Main\\> was wiped · 20 Nov 2026, 12:05 UTC',
    );
    expect(renderMarkdown(announcing(), { i18n: translator('de', 'UTC') }).body).toContain(
      'Karte auf de\\_dust2 geändert auf Survival',
    );
  });

  it('makes each an RSS item with a guid of its own that stays the same across renderings', async () => {
    const feed = await new Parser().parseString(
      renderFeed(announcing(), { selfUrl: 'https://x.example/feed.xml' }).body,
    );
    const items = feed.items.filter((item) => item.guid?.startsWith('urn:warden:game-change:'));
    expect(items.map((item) => [item.title, item.guid, item.categories])).toEqual([
      ['Map changed to de_dust2 on Survival', 'urn:warden:game-change:evt_map', ['game']],
      ['Rust <Main> was wiped', 'urn:warden:game-change:evt_wipe', ['game']],
    ]);
    expect(new Date(items[0]?.pubDate ?? '').getTime()).toBe(FIXTURE_NOW - 5 * MINUTE);
  });
});
