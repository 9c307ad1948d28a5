// The HTML status page as markup: landmarks, states in words, uptime strips, alternates, refresh, escaping, determinism.
import { createHash } from 'node:crypto';
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
import { CONTENT_SECURITY_POLICY } from './html-layout.js';
import { type HtmlPageOptions, renderHtmlPage } from './html-page.js';

const OPTIONS: HtmlPageOptions = {
  jsonPath: '/api/v1/pages/blockhaven/status',
  markdownPath: '/blockhaven.md',
  feedPath: '/blockhaven/feed.rss',
  ogImageUrl: 'https://status.blockhaven.example/blockhaven/og.png',
  refreshSeconds: 60,
};

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

/** The markup of the component with this id, from its <li> to its closing tag. */
function componentMarkup(html: string, id: string): string {
  const start = html.lastIndexOf('<li', html.indexOf(`data-component-id="${id}"`));
  expect(start).toBeGreaterThan(0);
  const next = html.indexOf('<li class="component"', start + 1);
  return html.slice(start, next === -1 ? html.indexOf('</ul>', html.lastIndexOf('class="strip"')) : next);
}

describe('renderHtmlPage', () => {
  it('answers a complete HTML document in UTF-8 with one of each landmark and one h1', () => {
    const { contentType, body } = renderHtmlPage(operationalSnapshot(), OPTIONS);
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(body.startsWith('<!doctype html>\n<html lang="en"')).toBe(true);
    expect(body).toContain('<meta charset="utf-8">');
    expect(body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    for (const landmark of ['header', 'main', 'footer'])
      expect(count(body, new RegExp(`<${landmark}[ >]`, 'g'))).toBe(1);
    expect(count(body, /<h1[ >]/g)).toBe(1);
    expect(body).toContain('<h1>Blockhaven Network</h1>');
    expect(body).toContain('<title>All systems operational · Blockhaven Network status</title>');
  });

  it('loads nothing from another host: no external script, stylesheet, image or font', () => {
    const { body } = renderHtmlPage(largeSnapshot(), OPTIONS);
    expect(body).not.toMatch(/<script[^>]+src=/);
    expect(body).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(body).not.toMatch(/<img /);
    expect(body).not.toMatch(/url\(/);
    expect(body).not.toMatch(/style="/);
  });

  it('states the overall state in words beside an icon, with hooks for tests', () => {
    const { body } = renderHtmlPage(partialOutageSnapshot(), OPTIONS);
    expect(body).toContain('data-testid="overall" data-state="degraded"');
    expect(body).toMatch(
      /id="overall-label"><span class="sr-only">Overall status: Degraded\. <\/span>Partial outage: 1 of 6 components down<\/h2>/,
    );
    expect(body).toMatch(
      /<section class="banner t-degraded"[^>]*><svg class="icon" viewBox="0 0 20 20" aria-hidden="true"/,
    );
  });

  it('shows each component with its state in words, its id and state as hooks, grouped under headings', () => {
    const snapshot = partialOutageSnapshot();
    const { body } = renderHtmlPage(snapshot, OPTIONS);
    expect(count(body, /data-testid="component"/g)).toBe(snapshot.components.length);
    expect(body.indexOf('<h3>Game servers</h3>')).toBeLessThan(body.indexOf('<h3>Community</h3>'));
    const survival = componentMarkup(body, 'survival');
    expect(survival).toContain('data-state="down"');
    expect(survival).toMatch(/<span class="state t-down"><svg [^>]*aria-hidden="true"[^>]*>.*<\/svg>Down<\/span>/);
    expect(survival).toContain('since <time datetime="2026-11-20T13:42:00Z" data-local>20 Nov 2026, 13:42 UTC</time>');
    expect(survival).toContain('connect ECONNREFUSED 10.0.0.12:25565');
    expect(componentMarkup(body, 'lobby')).toContain('</svg>Operational</span>');
  });

  it('uses a word for every state', () => {
    const words = [
      [largeSnapshot(), ['Operational', 'Degraded', 'Down', 'No data']],
      [maintenanceSnapshot(), ['Under maintenance']],
    ] as const;
    for (const [snapshot, expected] of words) {
      const { body } = renderHtmlPage(snapshot, OPTIONS);
      for (const word of expected) expect(body).toContain(`</svg>${word}</span>`);
    }
  });

  it('shows players, latency, version and the message of the day when the monitor gives them', () => {
    const { body } = renderHtmlPage(operationalSnapshot(), OPTIONS);
    const lobby = componentMarkup(body, 'lobby');
    expect(lobby).toContain('<li>Players <b>42 / 500</b></li>');
    expect(lobby).toContain('<li>Latency <b>23 ms</b></li>');
    expect(lobby).toContain('<li>Version <b>Velocity 3.4 (1.8–1.21.4)</b></li>');
    expect(lobby).toContain(
      '<p class="motd"><span class="sr-only">Message of the day: </span>Blockhaven Network\nSurvival · Creative · Minigames</p>',
    );
    expect(componentMarkup(body, 'bedrock')).toContain('<li>Players <b>9</b></li>');
    expect(componentMarkup(body, 'discord')).not.toContain('Players');
    expect(body).toContain('<dt>Players online</dt><dd>150 / 800</dd>');
  });

  it('draws a 90-day uptime strip, one labelled bar per day, summarised for assistive technology', () => {
    const { body } = renderHtmlPage(partialOutageSnapshot(), OPTIONS);
    const survival = componentMarkup(body, 'survival');
    expect(survival).toMatch(
      /<div class="strip" role="img" aria-label="Survival: \d+\.\d{2,3}% uptime over the past 90 days, \d+ days? with issues">/,
    );
    expect(count(survival, /<span class="[ogdmu]" title="\d{1,2} [A-Z][a-z]{2,3} \d{4}: /g)).toBe(90);
    expect(survival).toContain('<span class="d" title="20 Nov 2026: 91.32% uptime, outage');
    expect(survival).toContain('<span class="o" title="23 Aug 2026: 100.00% uptime"></span>');
    expect(survival).toMatch(/<li>30 days <b>\d+\.\d{2,3}%<\/b><\/li>/);
    const large = renderHtmlPage(largeSnapshot(), OPTIONS).body;
    expect(count(large, /<span class="[ogdmu]" title=/g)).toBe(50 * 90);
    expect(componentMarkup(large, 'cmp_45')).toContain('<span class="u" title="23 Aug 2026: no data"></span>');
  });

  it('shows active incidents with updates newest first, maintenance, and recent history', () => {
    const incident = renderHtmlPage(activeIncidentSnapshot(), OPTIONS).body;
    expect(incident).toContain('<h2 id="active-incidents-title">Active incidents</h2>');
    expect(incident).toContain('<h3>Lag spikes on Survival</h3>');
    const monitoring = incident.indexOf('<strong>Monitoring</strong>');
    expect(monitoring).toBeGreaterThan(0);
    expect(monitoring).toBeLessThan(incident.indexOf('<strong>Identified</strong>'));
    expect(incident.indexOf('<strong>Identified</strong>')).toBeLessThan(
      incident.indexOf('<strong>Investigating</strong>'),
    );
    expect(incident).toContain('<h2 id="recent-incidents-title">Recent incidents</h2>');
    expect(incident).toMatch(
      /<details class="incident t-down"><summary><h3>Players disconnected from every server<\/h3>/,
    );
    expect(incident).toContain('after 42 min');
    expect(incident.indexOf('Active incidents')).toBeLessThan(incident.indexOf('<h2 id="components-title">'));

    const maintenance = renderHtmlPage(maintenanceSnapshot(), OPTIONS).body;
    expect(maintenance).toContain('<h2 id="maintenance-title">Maintenance</h2>');
    expect(maintenance).toContain(
      '<h3>Weekly world backup and restart</h3><p class="incident-meta"><span class="pill">In progress</span> until',
    );
    expect(maintenance).toContain(
      '<h3>Database upgrade</h3><p class="incident-meta"><span class="pill">Scheduled</span>',
    );
    // A recurring window says how it repeats; its times are the occurrence's.
    expect(maintenance).toMatch(
      /<h3>Weekly world backup and restart<\/h3><p class="incident-meta">.*?<\/p><p class="incident-meta">Repeats: Every Friday at 14:30 \(Europe\/Berlin\), 45 min<\/p>/,
    );
    // The one-off database upgrade does not.
    expect(maintenance.match(/Repeats:/g)).toHaveLength(1);

    const calm = renderHtmlPage(operationalSnapshot(), OPTIONS).body;
    expect(calm).not.toContain('Active incidents');
    expect(calm).not.toContain('<h2 id="maintenance-title">');
    expect(calm).toContain('No incidents in the last 14 days.');
  });

  it('says when it was last updated in a <time> element', () => {
    const { body } = renderHtmlPage(operationalSnapshot(), OPTIONS);
    expect(body).toContain(
      'Last updated <time datetime="2026-11-20T14:05:00Z" data-local data-relative>20 Nov 2026, 14:05 UTC</time>',
    );
  });

  it('links its JSON, Markdown and RSS forms, and describes itself for link previews', () => {
    const { body } = renderHtmlPage(operationalSnapshot(), OPTIONS);
    expect(body).toContain('<link rel="alternate" type="application/json" href="/api/v1/pages/blockhaven/status"');
    expect(body).toContain('<link rel="alternate" type="text/markdown" href="/blockhaven.md"');
    expect(body).toContain('<link rel="alternate" type="application/rss+xml" href="/blockhaven/feed.rss"');
    expect(body).toContain('<link rel="canonical" href="https://status.blockhaven.example/">');
    expect(body).toContain('<meta property="og:title" content="Blockhaven Network status">');
    expect(body).toContain(
      '<meta property="og:description" content="All systems operational. Minecraft survival, creative and minigames since 2019.">',
    );
    expect(body).toContain('<meta property="og:image" content="https://status.blockhaven.example/blockhaven/og.png">');
    expect(body).toContain('<meta name="twitter:card" content="summary_large_image">');

    const bare = renderHtmlPage(operationalSnapshot(), { jsonPath: '/j', markdownPath: '/m', refreshSeconds: 30 }).body;
    expect(bare).not.toContain('application/rss+xml');
    expect(bare).not.toContain('og:image');
    expect(bare).toContain('<meta name="twitter:card" content="summary">');
  });

  it('refreshes itself by script every refreshSeconds, and by a reload when scripting is off', () => {
    const { body } = renderHtmlPage(operationalSnapshot(), { ...OPTIONS, refreshSeconds: 45 });
    expect(body).toContain('<html lang="en" data-refresh="45" data-generated="1795183500000">');
    expect(body).toContain('<noscript><meta http-equiv="refresh" content="45"></noscript>');
    expect(body).toContain("fetch(location.href, { credentials: 'same-origin'");
    const off = renderHtmlPage(operationalSnapshot(), { ...OPTIONS, refreshSeconds: 0 }).body;
    expect(off).toContain('data-refresh="0"');
    expect(off).not.toContain('http-equiv="refresh"');
  });

  it('follows its live stream when given one, and says how large its preview image is', () => {
    const { body } = renderHtmlPage(operationalSnapshot(), { ...OPTIONS, livePath: '/s/blockhaven/live' });
    expect(body).toContain(' data-live="/s/blockhaven/live">');
    expect(body).toContain('new WebSocket(');
    expect(body).toContain('<meta property="og:image:width" content="1200">');
    expect(body).toContain('<meta property="og:image:height" content="630">');
    expect(body).toContain('<meta name="twitter:image" content="https://status.blockhaven.example/blockhaven/og.png">');
    expect(renderHtmlPage(operationalSnapshot(), OPTIONS).body).not.toContain('data-live=');
  });

  it('allows only its own stylesheet and script by hash in its Content-Security-Policy', () => {
    const { body } = renderHtmlPage(operationalSnapshot(), OPTIONS);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(body)?.[1] ?? '';
    const script = /<script>([\s\S]*?)<\/script>/.exec(body)?.[1] ?? '';
    expect(CONTENT_SECURITY_POLICY).toContain(`style-src ${hash(style)}`);
    expect(CONTENT_SECURITY_POLICY).toContain(`script-src ${hash(script)}`);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(body).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY.replace(/'/g, '&#39;')}">`,
    );
  });

  it('escapes every piece of user text', () => {
    const { body } = renderHtmlPage(hostileSnapshot(), OPTIONS);
    expect(count(body, /<script/g)).toBe(1);
    expect(body).not.toMatch(/<img|<svg onload|<b>(bold|x|html)|<\/title><|<!--|<\/textarea>|onerror=alert\(1\)>/);
    for (const escaped of [
      '<span class="component-desc">&quot;&gt;&lt;svg onload=alert(4)&gt;</span>',
      '<p class="component-name">&lt;img src=x onerror=alert(1)&gt;',
      'data-component-id="cmp_xss&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"',
      '<h1>Bob&#39;s &quot;Best&quot; &lt;Server&gt; &amp; Co</h1>',
      '<meta property="og:title" content="Bob&#39;s &quot;Best&quot; &lt;Server&gt; &amp; Co status">',
      '<h3>&lt;/h3&gt;&lt;script&gt;alert(3)&lt;/script&gt;</h3>',
      'aria-label="&lt;img src=x onerror=alert(1)&gt;: ',
      '&lt;/p&gt;&lt;/li&gt;&lt;/ol&gt;&lt;script&gt;alert(7)&lt;/script&gt;',
      'Repeats: RRULE &lt;img src=x onerror=alert(13)&gt; *x* [y](javascript:alert(13)) | z',
    ])
      expect(body).toContain(escaped);
  });

  it('renders the same snapshot to the same bytes', () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES)) {
      expect(renderHtmlPage(make(), OPTIONS).body).toBe(renderHtmlPage(structuredClone(make()), OPTIONS).body);
    }
  });

  it('keeps a 50-component page small enough to serve fast', () => {
    const { body } = renderHtmlPage(largeSnapshot(), OPTIONS);
    expect(body.length).toBeLessThan(400_000);
  });
});
