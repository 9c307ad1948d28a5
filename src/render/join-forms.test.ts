// The join controls and badges in every form of a page that shows them: HTML, embed, JSON, Markdown and og.png.
import { describe, expect, it } from 'vitest';
import { joinSnapshot } from '../../test/fakes/join-snapshot.js';
import { snapshotSchema } from '../domain/snapshot.js';
import { renderEmbed } from './embed.js';
import { pageForms } from './forms.js';
import { renderHtmlPage } from './html-page.js';
import { translator } from './i18n/index.js';
import { renderMarkdown } from './markdown.js';
import { renderOgImage } from './og-image.js';

const part = (html: string, id: string) => {
  const start = html.indexOf(`data-component-id="${id}"`);
  const next = html.indexOf('<li class="component"', start);
  return html.slice(start, next === -1 ? undefined : next);
};

describe('join controls on the HTML page', () => {
  const html = renderHtmlPage(joinSnapshot(), {
    jsonPath: '/status.json',
    markdownPath: '/status.md',
    refreshSeconds: 30,
  }).body;

  it('links steam:// with a labelled link, the address beside it, and the badges in words', () => {
    const cs = part(html, 'cs');
    expect(cs).toContain(
      '<a class="join-go" data-testid="join-link" href="steam://connect/203.0.113.5:27015" aria-label="Join via Steam: Counter-Strike (203.0.113.5:27015)">Join via Steam</a>',
    );
    expect(cs).toContain('<code class="join-address" data-testid="join-address">203.0.113.5:27015</code>');
    expect(cs).toMatch(/<li class="jb jb-full" data-badge="full">Full<\/li><li class="jb jb-password"[^>]*>Password</);
  });

  it('copies an address with a labelled button and a status region, escaping the name', () => {
    const mc = part(html, 'mc');
    expect(mc).toContain('<button type="button" class="join-go" data-testid="join-copy" data-copy="play.example.com"');
    expect(mc).toContain('aria-label="Copy address: Survival &lt;SMP&gt; (play.example.com)">Copy address</button>');
    expect(mc).toContain('<span class="join-note" data-testid="join-note" role="status"></span>');
    expect(mc).toContain('>7 in queue</li>');
  });

  it('opens an https join link in a new tab, and shows nothing for a component without a join', () => {
    expect(part(html, 'rp')).toContain('href="https://cfx.re/join/abc123" target="_blank" rel="noopener"');
    expect(part(html, 'web')).not.toContain('class="join"');
  });

  it('escapes what it writes into attributes and text', () => {
    const hostile = joinSnapshot();
    const evil = '"><script>alert(1)</script>';
    hostile.components[1] = { ...hostile.components[1]!, join: { kind: 'copy', label: evil, address: evil } };
    const body = renderHtmlPage(hostile, {
      jsonPath: '/status.json',
      markdownPath: '/status.md',
      refreshSeconds: 30,
    }).body;
    expect(body).not.toContain('<script>alert(1)');
    expect(body).toContain('data-copy="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('speaks the page language', () => {
    const german = renderHtmlPage(joinSnapshot(), {
      jsonPath: '/status.json',
      markdownPath: '/status.md',
      refreshSeconds: 30,
      i18n: translator('de'),
    }).body;
    expect(part(german, 'cs')).toContain('>Über Steam beitreten</a>');
    expect(part(german, 'mc')).toContain('data-copied="Kopiert"');
  });
});

describe('join in the other forms', () => {
  it('puts the join and badges in the JSON snapshot', () => {
    const body = JSON.parse(pageForms.json.render(joinSnapshot()).body);
    expect(snapshotSchema.parse(body).components.map((c) => c.join?.kind ?? null)).toEqual([
      'steam',
      'copy',
      'link',
      null,
    ]);
    expect(body.components[1].badges).toEqual([{ kind: 'whitelist' }, { kind: 'queue', count: 7 }]);
  });

  it("shows one component's join in its embed widget", () => {
    const options = { livePath: '/s/x/live', jsonPath: '/s/x/status.json' };
    const { body } = renderEmbed(joinSnapshot(), { ...options, component: 'mc' });
    expect(body).toContain('data-copy="play.example.com"');
    expect(body).toContain('function joinCopies(doc)');
    expect(renderEmbed(joinSnapshot(), { ...options, component: 'web' }).body).not.toContain('class="join"');
  });

  it('gives Markdown the address as text', () => {
    const { body } = renderMarkdown(joinSnapshot());
    expect(body).toContain('Join: steam://connect/203.0.113.5:27015; Full; Password');
    expect(body).toContain('Join: play.example.com; Whitelist; 7 in queue');
    expect(body).toContain('Join: https://cfx.re/join/abc123');
  });

  it('draws the address under the name on og.png', async () => {
    const withJoin = await renderOgImage(joinSnapshot());
    const plain = joinSnapshot();
    plain.components = plain.components.map((c) => ({ ...c, join: null }));
    expect(Buffer.from(withJoin.body).equals(Buffer.from((await renderOgImage(plain)).body))).toBe(false);
  });
});
