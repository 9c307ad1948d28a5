// The embed widget as markup: self-contained, its policy allows only its own style and script, state, players, link, themes, variants.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, markupIn, tame } from '../../test/contracts/renderers-languages.js';
import {
  activeIncidentSnapshot,
  hostileSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
  SNAPSHOT_FIXTURES,
  snapshotOf,
} from '../../test/fakes/snapshots.js';
import {
  EMBED_COMPONENT_MAX_CHARS,
  EMBED_CONTENT_SECURITY_POLICY,
  EMBED_DOCUMENT_POLICY,
  embedCanonicalOptions,
  embedOptions,
  renderEmbed,
} from './embed.js';
import { EMBED_HEIGHT_MESSAGE } from './embed-script.js';

const OPTIONS = { livePath: '/s/blockhaven/live', jsonPath: '/s/blockhaven/status.json' };

describe('renderEmbed', () => {
  it('shows the state, the name, the overall label, players online and a link opening the page in a new tab', () => {
    const { contentType, body } = renderEmbed(partialOutageSnapshot(), OPTIONS);
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(body).toContain('<div class="widget t-degraded" data-testid="embed" data-state="degraded">');
    expect(body).toContain(
      'data-testid="embed-link" aria-label="Blockhaven Network: full status (opens in a new tab)">Blockhaven Network<span',
    );
    expect(body).toContain('aria-live="polite">Partial outage: 1 of 6 components down</span>');
    expect(body).toContain(
      '<p class="players" data-testid="embed-players"><b class="count">63 / 600</b> <span>online</span></p>',
    );
    expect(body).toMatch(
      /<a class="open" href="https:\/\/status\.blockhaven\.example\/" target="_blank" rel="noopener"/,
    );
    expect(body).toContain(' data-live="/s/blockhaven/live" data-json="/s/blockhaven/status.json"');
  });

  it('hides the players part when the page reports none', () => {
    const { body } = renderEmbed(snapshotOf([], {}), OPTIONS);
    expect(body).toContain('data-testid="embed-players" hidden><b class="count"></b> <span>online</span></p>');
  });

  it('loads nothing from anywhere: inline style and script, allowed by their hashes', () => {
    const { body } = renderEmbed(operationalSnapshot(), OPTIONS);
    expect(body).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/);
    expect(body).not.toMatch(/url\(/);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(body)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(body)![1]!;
    expect(EMBED_DOCUMENT_POLICY).toContain(`style-src ${hash(style)}`);
    expect(EMBED_DOCUMENT_POLICY).toContain(`script-src ${hash(script)}`);
    expect(EMBED_DOCUMENT_POLICY).toContain("connect-src 'self'");
    // frame-ancestors is ignored (and warned about) in a <meta>: it is sent as a header only.
    expect(body).not.toContain('frame-ancestors');
    expect(EMBED_CONTENT_SECURITY_POLICY.endsWith('; frame-ancestors *')).toBe(true);
  });

  it('follows the reader’s colour scheme unless a theme is asked for', () => {
    expect(renderEmbed(operationalSnapshot(), OPTIONS).body).toContain('<html lang="en" data-theme="auto"');
    expect(renderEmbed(operationalSnapshot(), { ...OPTIONS, theme: 'dark' }).body).toContain('data-theme="dark"');
    expect(embedOptions(new URLSearchParams('theme=light'))).toEqual({ theme: 'light' });
    expect(embedOptions(new URLSearchParams('theme=%22%3E'))).toEqual({});
    expect(embedOptions(new URLSearchParams('players&x=1'))).toEqual({});
  });

  it('escapes hostile text', () => {
    const { body } = renderEmbed(hostileSnapshot(), OPTIONS);
    expect(body).not.toContain('<img src=x');
    expect(body).toContain('Bob&#39;s &quot;Best&quot; &lt;Server&gt; &amp; Co');
    expect(body.match(/<script>/g)).toHaveLength(1);
  });

  it('gives the same bytes for the same snapshot', () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES))
      expect(renderEmbed(make(), OPTIONS).body).toBe(renderEmbed(make(), OPTIONS).body);
  });
});

describe('the embed’s variants and options', () => {
  const render = (query: string, snapshot = activeIncidentSnapshot()) =>
    renderEmbed(snapshot, { ...OPTIONS, ...embedCanonicalOptions(snapshot, embedOptions(new URLSearchParams(query))) });
  const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

  it('normalizes options to few sets: defaults and unknown values dropped, a component instead of a variant', () => {
    const options = (query: string) => embedOptions(new URLSearchParams(query));
    expect(options('variant=compact&theme=auto&utm_source=forum')).toEqual({});
    expect(options('variant=FULL&theme=sepia')).toEqual({});
    expect(options('variant=full&theme=dark')).toEqual({ theme: 'dark', variant: 'full' });
    expect(options('component=%20Lobby%20&variant=full')).toEqual({ component: 'Lobby' });
    expect(options('component=')).toEqual({});
    expect(options(`component=${'x'.repeat(EMBED_COMPONENT_MAX_CHARS + 1)}`)).toEqual({ component: '' });
    // Against the snapshot, a name becomes the id and every unknown name the same '', so they share one rendering.
    const snapshot = activeIncidentSnapshot();
    expect(embedCanonicalOptions(snapshot, { component: 'bedrock GATEWAY' })).toEqual({ component: 'bedrock' });
    expect(embedCanonicalOptions(snapshot, { component: 'nope', theme: 'dark' })).toEqual({
      component: '',
      theme: 'dark',
    });
    expect(embedCanonicalOptions(snapshot, { component: 'nope-2', theme: 'dark' })).toEqual({
      component: '',
      theme: 'dark',
    });
  });

  it('compact (the default) is the overall line alone', () => {
    const { body } = render('');
    expect(body).toContain('data-variant="compact"');
    expect(body).not.toContain('data-testid="embed-component"');
    expect(body).not.toContain('Lag spikes on Survival');
  });

  it('full lists the components by group with their state and players, and the active incidents linking to the page', () => {
    const { body, status } = render('variant=full');
    expect(status).toBeUndefined();
    expect(body).toContain('data-variant="full"');
    const rows = [...body.matchAll(/<li class="component t-(\w+)"[^>]*>([\s\S]*?)<\/li>/g)].map(
      ([, state, row]) => `${state}: ${textOf(row!).trim()}`,
    );
    expect(rows).toEqual([
      'operational: Lobby 42 / 500 online Operational',
      'degraded: Survival 87 / 200 online Degraded',
      'operational: Creative 12 / 100 online Operational',
      'operational: Bedrock gateway 9 online Operational',
      'operational: Website Operational',
      'operational: Discord bot Operational',
    ]);
    expect([...body.matchAll(/<h2 class="group"[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual([
      'Game servers',
      'Community',
      'Active incidents',
    ]);
    expect(body).toMatch(
      /<li class="incident" data-testid="embed-incident"><a href="https:\/\/status\.blockhaven\.example\/" target="_blank" rel="noopener">Lag spikes on Survival<\/a> <span class="istatus">Monitoring<\/span><\/li>/,
    );
    // No resolved incident, and no heading for incidents when none is active.
    expect(body).not.toContain('Players disconnected');
    expect(render('variant=full', operationalSnapshot()).body).not.toContain('embed-incident');
  });

  it('shows one component by id or name: its state, players and latency, the same bytes either way', () => {
    const byName = render('component=Survival');
    expect(byName.body).toBe(render('component=survival&variant=full').body);
    expect(byName.body).toContain('data-variant="component" data-component="survival"');
    expect(byName.body).toContain(
      '<div class="widget t-degraded" data-testid="embed" data-state="degraded" data-component-id="survival">',
    );
    expect(textOf(byName.body.split('<body>')[1]!.split('<script>')[0]!).trim()).toBe(
      'Survival ↗ Degraded · latency 31 ms 87 / 200 online',
    );
    expect(byName.body).toContain('aria-label="Survival on Blockhaven Network: full status (opens in a new tab)"');
    // A component reporting neither players nor latency shows its state alone.
    const bot = render('component=discord').body;
    expect(bot).not.toContain('embed-players');
    expect(bot).not.toContain('embed-latency');
  });

  it('says so inside the widget, with status 404, for a component the page does not have', () => {
    const missing = render('component=Nether');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain(
      '<p class="status" data-testid="embed-missing">This status page has no such component.</p>',
    );
    expect(missing.body).toContain('data-component=""');
    expect(missing.body).toContain('data-testid="embed-link"');
    expect(render('component=End').body).toBe(missing.body);
  });

  it('applies a forced theme to every variant', () => {
    for (const query of ['theme=dark&variant=full', 'theme=dark&component=lobby', 'theme=dark&component=nope'])
      expect(render(query).body, query).toContain('data-theme="dark"');
    expect(render('theme=light&variant=full').body).toContain('data-theme="light"');
    expect(render('theme=auto&variant=full').body).toContain('data-theme="auto"');
  });

  it('opens every link in a new tab, without handing the host window to the page', () => {
    for (const query of ['', 'variant=full', 'component=lobby', 'component=nope']) {
      const links = render(query).body.match(/<a [^>]*>/g) ?? [];
      expect(links.length, query).toBeGreaterThan(0);
      for (const link of links) expect(link, query).toMatch(/ target="_blank" rel="noopener"/);
    }
  });

  it('tells its host page its height, naming its page, from its one hashed script', () => {
    const { body } = render('variant=full');
    expect(body).toContain(' data-slug="blockhaven" ');
    const script = /<script>([\s\S]*?)<\/script>/.exec(body)![1]!;
    expect(script).toContain(`type: '${EMBED_HEIGHT_MESSAGE}', slug: slug, height: now`);
    expect(script).toContain('new ResizeObserver(');
    expect(EMBED_DOCUMENT_POLICY).toContain(
      `script-src '${createHash('sha256').update(script).digest('base64').replace(/^/, 'sha256-')}'`,
    );
  });

  it('escapes hostile text in the full and component variants', () => {
    for (const query of [
      'variant=full',
      'component=cmp_long',
      `component=${encodeURIComponent('<img src=x onerror=alert(1)>')}`,
    ]) {
      const { body } = render(query, hostileSnapshot());
      expect(body, query).not.toContain('<img src=x');
      expect(body, query).not.toContain('<script>alert');
      expect(body.match(/<script>/g), query).toHaveLength(1);
    }
    // The hostile component's widget has the structure of its tamed twin's (tame() turns cmp_long into cmpxlong).
    const hostile = hostileSnapshot();
    const [a, b] = [render('component=cmp_long', hostile).body, render('component=cmpxlong', tame(hostile)).body];
    expect(a).toContain('data-component="cmp_long"');
    LANGUAGES.html.sameStructure(a, b, markupIn(hostile));
    expect(render('variant=full', hostileSnapshot()).body).toContain(
      'Bob&#39;s &quot;Best&quot; &lt;Server&gt; &amp; Co — &lt;/title&gt;&lt;script&gt;alert(6)&lt;/script&gt;</a>',
    );
  });
});
