// A page's branding in its forms: the HTML page's logo, links, footer, accent, stylesheet and policy; og.png's accent
// and logo; the embed's accent and logo.
import { describe, expect, it } from 'vitest';
import { solidPng } from '../../test/fakes/images.js';
import { hostileSnapshot, operationalSnapshot } from '../../test/fakes/snapshots.js';
import { countNear, hexAt, readPng } from '../../test/pixels.js';
import { accentForDark } from '../domain/branding.js';
import type { Snapshot, SnapshotBranding } from '../domain/snapshot.js';
import { renderEmbed } from './embed.js';
import { brandStyle, withSources } from './html-branding.js';
import { CONTENT_SECURITY_POLICY, cspHash } from './html-layout.js';
import { renderHtmlPage } from './html-page.js';
import { renderOgImage } from './og-image.js';

const ACCENT = '#5b2a86';
const LOGO_COLOUR = '#12b886';

function branded(branding: Partial<SnapshotBranding>, base: Snapshot = operationalSnapshot()): Snapshot {
  base.page.branding = { ...base.page.branding, ...branding };
  return base;
}

const page = (snapshot: Snapshot, basePath = '/s/lobby') =>
  renderHtmlPage(snapshot, {
    jsonPath: `${basePath}/status.json`,
    markdownPath: `${basePath}/status.md`,
    refreshSeconds: 30,
    basePath,
  });

describe('the HTML page of a branded page', () => {
  it('changes nothing for a page without branding: the shared policy, the state favicon, "Powered by Warden"', () => {
    const html = page(operationalSnapshot());
    expect(html.contentSecurityPolicy).toBeUndefined();
    expect(html.body).toContain(`content="${CONTENT_SECURITY_POLICY.replaceAll("'", '&#39;')}"`);
    expect(html.body).toContain('<link rel="icon" href="data:image/svg+xml,');
    expect(html.body).toContain('Powered by Warden');
    expect(html.body).not.toContain('brand-');
  });

  it('shows the uploaded logo instead of the title, with the title as its text, under the page path', () => {
    const html = page(branded({ logo: '/assets/logo?v=0123456789abcdef' })).body;
    expect(html).toMatch(
      /<h1><img class="brand-logo" src="\/s\/lobby\/assets\/logo\?v=0123456789abcdef" alt="Blockhaven Network"/,
    );
    // On the custom domain the same path sits at the root.
    expect(page(branded({ logo: '/assets/logo?v=0123456789abcdef' }), '').body).toContain(
      'src="/assets/logo?v=0123456789abcdef"',
    );
  });

  it('links the header links with rel="noopener", a Discord icon for Discord invites, and the footer text; "Powered by" can go', () => {
    const snapshot = branded({
      links: [
        { label: 'Discord', url: 'https://discord.gg/abc' },
        { label: 'Store', url: 'https://store.example.com/' },
      ],
      footerText: '© Blockhaven\nNot affiliated with Mojang.',
      poweredBy: false,
    });
    const html = page(snapshot).body;
    const nav = html.slice(
      html.indexOf('<nav class="brand-links"'),
      html.indexOf('</nav>', html.indexOf('brand-links')),
    );
    expect(nav).toContain('aria-label="Links"');
    expect(nav).toMatch(
      /<a href="https:\/\/discord.gg\/abc" rel="noopener"><svg [^>]*aria-hidden="true"[\s\S]*<\/svg>Discord<\/a>/,
    );
    expect(nav).toContain('<a href="https://store.example.com/" rel="noopener">Store</a>');
    expect(html).toContain(
      '<p class="brand-footer" data-testid="brand-footer">© Blockhaven\nNot affiliated with Mojang.</p>',
    );
    expect(html).not.toContain('Powered by Warden');
  });

  it('escapes hostile labels and footer text, and never links anything but http(s)', () => {
    const snapshot = branded(
      {
        links: [
          { label: '<script>alert(1)</script>', url: 'https://example.com/"><script>alert(2)</script>' },
          { label: 'evil', url: 'javascript:alert(3)' },
        ],
        footerText: '</footer><script>alert(4)</script>',
        accentColor: 'red}</style><script>alert(5)</script>',
        logo: 'https://cdn.example.com/logo.png" onerror="alert(6)',
      },
      hostileSnapshot(),
    );
    const html = page(snapshot).body;
    expect(html).not.toMatch(/<script>alert\([1-6]\)/);
    expect(html).not.toContain('javascript:alert(3)');
    expect(html).not.toContain('" onerror="');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // A colour that is not #rrggbb never reaches the stylesheet.
    expect(html).not.toContain('--link:red');
  });

  it('sets the accent as CSS variables for light and dark, after the built-in styles, allowed by its hash', () => {
    const dark = accentForDark(ACCENT);
    const snapshot = branded({ accentColor: ACCENT, accentColorDark: dark });
    const html = page(snapshot);
    const style = brandStyle(snapshot.page.branding);
    expect(style).toBe(
      `:root{--link:${ACCENT};--accent:${ACCENT}}@media (prefers-color-scheme:dark){:root{--link:${dark};--accent:${dark}}}`,
    );
    expect(html.body.indexOf(`<style>${style}</style>`)).toBeGreaterThan(
      html.body.indexOf('<style>:root{color-scheme'),
    );
    expect(html.contentSecurityPolicy).toContain(
      `style-src '${cspHash(html.body.match(/<style>(:root\{color-scheme[^<]*)<\/style>/)?.[1] ?? '')}' '${cspHash(style)}'`,
    );
    expect(html.body).toContain(`content="${html.contentSecurityPolicy?.replaceAll("'", '&#39;')}"`);
  });

  it('links the custom stylesheet after the built-in styles, and allows only this host for it', () => {
    const html = page(branded({ stylesheet: '/custom.css?v=abcdef0123456789' }));
    const link = '<link rel="stylesheet" href="/s/lobby/custom.css?v=abcdef0123456789">';
    expect(html.body).toContain(link);
    expect(html.body.indexOf(link)).toBeGreaterThan(html.body.indexOf('<style>'));
    expect(html.body.indexOf(link)).toBeLessThan(html.body.indexOf('</head>'));
    expect(html.contentSecurityPolicy).toMatch(/style-src 'sha256-[^']+' 'self';/);
    expect(html.contentSecurityPolicy).toContain("script-src 'sha256-");
    expect(html.contentSecurityPolicy).not.toContain('unsafe-inline');
  });

  it('uses the page favicon instead of the state one, and allows the external logo and favicon hosts for images only', () => {
    const html = page(
      branded({ logo: 'https://cdn.example.com/logo.png', favicon: 'https://icons.example.net/f.ico' }),
    );
    expect(html.body).toContain('<link rel="icon" href="https://icons.example.net/f.ico">');
    expect(html.contentSecurityPolicy).toContain(
      "img-src 'self' data: https://cdn.example.com https://icons.example.net;",
    );
    expect(html.contentSecurityPolicy).toContain("default-src 'none'");
    expect(html.contentSecurityPolicy).toContain("connect-src 'self';");
  });

  it('adds sources to a policy directive, or the directive when the policy lacks it', () => {
    expect(
      withSources("default-src 'none'; img-src 'self'", {
        'img-src': ['https://a.example'],
        'style-src': ["'self'"],
        'font-src': [],
      }),
    ).toBe("default-src 'none'; img-src 'self' https://a.example; style-src 'self'");
  });
});

describe('og.png of a branded page', () => {
  it('runs the accent down its left edge and draws the uploaded logo', async () => {
    const snapshot = branded({
      accentColor: ACCENT,
      accentColorDark: accentForDark(ACCENT),
      logo: '/assets/logo?v=0123456789abcdef',
    });
    const png = readPng(
      (await renderOgImage(snapshot, { contentType: 'image/png', body: solidPng(LOGO_COLOUR) })).body,
    );
    expect(hexAt(png, 4, 300)).toBe(ACCENT);
    expect(countNear(png, LOGO_COLOUR, 2)).toBeGreaterThan(100 * 30);
    const plain = readPng((await renderOgImage(operationalSnapshot())).body);
    expect(hexAt(plain, 4, 300)).toBe('#ffffff');
    expect(countNear(plain, LOGO_COLOUR, 2)).toBe(0);
  });

  it('gives the page description as its subtitle', async () => {
    const withText = branded({});
    withText.page.description = 'Survival, creative and minigames since 2019';
    const without = operationalSnapshot();
    without.page.description = null;
    const [a, b] = await Promise.all([renderOgImage(withText), renderOgImage(without)]);
    expect(Buffer.from(a.body).equals(Buffer.from(b.body))).toBe(false);
  });
});

describe('the embed of a branded page', () => {
  it('takes the accent for its links and shows the logo, allowing exactly its style and image host', () => {
    const snapshot = branded({
      accentColor: ACCENT,
      accentColorDark: accentForDark(ACCENT),
      logo: 'https://cdn.example.com/logo.png',
    });
    const embed = renderEmbed(snapshot, {
      livePath: '/s/lobby/live',
      jsonPath: '/s/lobby/status.json',
      basePath: '/s/lobby',
    });
    expect(embed.body).toContain(`--link:${ACCENT}`);
    expect(embed.body).toMatch(/<img class="logo" src="https:\/\/cdn.example.com\/logo.png" alt=""/);
    expect(embed.contentSecurityPolicy).toContain('img-src https://cdn.example.com');
    expect(embed.body).toContain(`content="${embed.contentSecurityPolicy?.replaceAll("'", '&#39;')}"`);
    const plain = renderEmbed(operationalSnapshot(), { livePath: '/live', jsonPath: '/status.json' });
    expect(plain.contentSecurityPolicy).toBeUndefined();
    expect(plain.body).not.toContain('class="logo"');
  });
});
