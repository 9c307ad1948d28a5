// The RSS feed read back by an independent parser (rss-parser): channel, items, order, guids, dates, updates, escaping.
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import {
  activeIncidentSnapshot,
  FIXTURE_NOW,
  hostileSnapshot,
  maintenanceSnapshot,
  operationalSnapshot,
  SNAPSHOT_FIXTURES,
} from '../../test/fakes/snapshots.js';
import type { Snapshot } from '../domain/snapshot.js';
import { renderFeed } from './feed.js';

const SELF = 'https://status.blockhaven.example/feed.xml';
const parser = new Parser<{ 'atom:link': { $: Record<string, string> }; lastBuildDate: string }>({
  customFields: { feed: ['atom:link'] },
});
const parse = (snapshot: Snapshot) => parser.parseString(renderFeed(snapshot, { selfUrl: SELF }).body);

describe('renderFeed', () => {
  it('is RSS 2.0 with a channel: title, link, description, lastBuildDate, atom:link rel="self"', async () => {
    const { contentType, body } = renderFeed(activeIncidentSnapshot(), { selfUrl: SELF });
    expect(contentType).toBe('application/rss+xml; charset=utf-8');
    expect(
      body.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
      ),
    ).toBe(true);
    const feed = await parse(activeIncidentSnapshot());
    expect(feed.title).toBe('Blockhaven Network status');
    expect(feed.link).toBe('https://status.blockhaven.example/');
    expect(feed.description).toContain('Incidents (active and of the last 14 days) and scheduled maintenance');
    expect(new Date(feed.lastBuildDate).getTime()).toBe(FIXTURE_NOW);
    expect(feed['atom:link'].$).toEqual({ href: SELF, rel: 'self', type: 'application/rss+xml' });
  });

  it('has one item per incident, newest first, with impact and status in the title and the updates in the description', async () => {
    const feed = await parse(activeIncidentSnapshot());
    expect(feed.items.map((item) => item.title)).toEqual([
      'Lag spikes on Survival (Minor impact, Monitoring)',
      'Players disconnected from every server (Major impact, Resolved)',
      'Website slow to load (Minor impact, Resolved)',
    ]);
    const dates = feed.items.map((item) => new Date(item.pubDate as string).getTime());
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    // An incident dates from its latest update.
    expect(dates[0]).toBe(FIXTURE_NOW - 5 * 60_000);
    const lag = feed.items[0]!;
    expect(lag.guid).toBe('urn:warden:incident:inc_lag');
    expect(lag.link).toBe('https://status.blockhaven.example/');
    expect(lag.categories).toEqual(['incident']);
    expect(lag.content).toContain('<strong>Monitoring</strong> — 20 Nov 2026, 14:00 UTC<br>TPS is back to 20.');
    expect(lag.content).toContain(
      'A runaway redstone clock near spawn was pinning the main thread.<br>It has been removed.',
    );
    expect(lag.content).toContain('Affects: Survival');
    // Updates newest first, as on the page.
    expect(lag.content!.indexOf('Monitoring</strong>')).toBeLessThan(lag.content!.indexOf('Investigating</strong>'));
    expect(feed.items[1]!.content).toContain('resolved 17 Nov 2026, 12:47 UTC after 42 min');
  });

  it('has one item per maintenance window, with its window in the title, upcoming ones first', async () => {
    const feed = await parse(maintenanceSnapshot());
    expect(feed.items.map((item) => [item.title, item.guid, item.categories])).toEqual([
      [
        'Scheduled maintenance: Database upgrade (22 Nov 2026, 20:05–22:05 UTC)',
        'urn:warden:maintenance:mnt_db',
        ['maintenance'],
      ],
      [
        'Maintenance in progress: Weekly world backup and restart (20 Nov 2026, 13:30–14:15 UTC)',
        'urn:warden:maintenance:mnt_weekly',
        ['maintenance'],
      ],
    ]);
    expect(feed.items[1]!.content).toContain('Creative is restarting after its weekly backup.');
    expect(feed.items[1]!.content).toContain('Repeats: Every Friday at 14:30 (Europe/Berlin), 45 min');
    expect(feed.items[0]!.content).not.toContain('Repeats:');
    expect(feed.items[0]!.content).toContain('Affects: Survival, Creative, Website');
  });

  it('has a valid channel and no items when nothing happened', async () => {
    const feed = await parse(operationalSnapshot());
    expect(feed.title).toBe('Blockhaven Network status');
    expect(feed.items).toEqual([]);
  });

  it('keeps guids stable as an incident gets updates', async () => {
    const before = await parse(activeIncidentSnapshot());
    const later = activeIncidentSnapshot();
    later.activeIncidents[0]!.updates.push({
      id: 'upd_4',
      status: 'resolved',
      message: 'Fixed.',
      at: FIXTURE_NOW + 60_000,
    });
    const after = await parse(later);
    expect(after.items.map((item) => item.guid)).toEqual(before.items.map((item) => item.guid));
  });

  it('escapes hostile text: the parser reads back exactly what was written', async () => {
    const snapshot = hostileSnapshot();
    const feed = await parse(snapshot);
    expect(feed.title).toBe('Bob\'s "Best" <Server> & Co status');
    expect(feed.items[0]!.title).toBe(
      'Bob\'s "Best" <Server> & Co — </title><script>alert(6)</script> (Major impact, Investigating)',
    );
    // The description is HTML: user text in it is escaped once more, so no markup of theirs survives.
    expect(feed.items[0]!.content).not.toContain('<script>');
    expect(feed.items[0]!.content).toContain('&lt;/p&gt;&lt;/li&gt;&lt;/ol&gt;&lt;script&gt;alert(7)&lt;/script&gt;');
    const backup = feed.items.find((item) => item.guid === 'urn:warden:maintenance:mnt_xss');
    expect(backup?.content).toContain('Repeats: RRULE &lt;img src=x onerror=alert(13)&gt;');
    expect(backup?.content).not.toContain('<img');
  });

  it('drops characters XML cannot carry', async () => {
    const snapshot = activeIncidentSnapshot();
    snapshot.activeIncidents[0]!.title = 'Lag\u0001 spikes \ud800on Survival';
    const feed = await parse(snapshot);
    expect(feed.items[0]!.title).toBe('Lag spikes on Survival (Minor impact, Monitoring)');
  });

  it('parses for every fixture, deterministically', async () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES)) {
      expect(renderFeed(make(), { selfUrl: SELF }).body).toBe(renderFeed(make(), { selfUrl: SELF }).body);
      await expect(parse(make())).resolves.toBeTruthy();
    }
  });
});
