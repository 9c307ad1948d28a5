// What a page's branding adds to its HTML: the logo in the header, header links, footer text, the favicon, the accent
// colour, the custom stylesheet, and a Content-Security-Policy that allows exactly these and nothing more.
import type { SnapshotBranding } from '../domain/snapshot.js';
import { CONTENT_SECURITY_POLICY, cspHash, escapeHtml } from './html-layout.js';
import type { Translator } from './i18n/index.js';

/** What the document shell takes from a page's branding (see htmlDocument's parts of the same names). */
export interface BrandedDocument {
  /** The accent's <style> and the custom stylesheet's <link>, after the built-in stylesheet (so they win over it). */
  afterStyles: string;
  /** The page's favicon, or undefined for the state's (which then shows the page's state in the tab). */
  favicon: string | undefined;
  /** The built-in policy, plus the accent's style, the stylesheet ('self') and the image hosts the branding names. */
  contentSecurityPolicy: string;
}

/** What a branded page adds to its document; nothing at all for a page without branding (the shared policy stands). */
export function brandedDocument(branding: SnapshotBranding, basePath: string): BrandedDocument | undefined {
  const style = brandStyle(branding);
  const stylesheet =
    branding.stylesheet === null
      ? ''
      : `<link rel="stylesheet" href="${escapeHtml(basePath + branding.stylesheet)}">\n`;
  const favicon = branding.favicon === null ? undefined : imageSource(branding.favicon, basePath);
  if (style === '' && stylesheet === '' && favicon === undefined && branding.logo === null) return undefined;
  return {
    afterStyles: (style === '' ? '' : `<style>${style}</style>\n`) + stylesheet,
    favicon,
    contentSecurityPolicy: withSources(CONTENT_SECURITY_POLICY, {
      'style-src': [...(style === '' ? [] : [`'${cspHash(style)}'`]), ...(stylesheet === '' ? [] : ["'self'"])],
      'img-src': imageOrigins(branding),
    }),
  };
}

/** What a branded page adds to its embed: its accent, its logo beside the state, and the widget's policy allowing them. */
export interface BrandedEmbed {
  /** A second stylesheet (after the widget's): the accent for the light and dark themes, and the logo's size. */
  style: string;
  /** The logo (decorative: the page's name follows it), or ''. */
  logo: string;
  contentSecurityPolicy: string;
}

/** The embed's branding over its document policy `basePolicy`; undefined for a page with neither accent nor logo. */
export function brandedEmbed(
  branding: SnapshotBranding,
  basePath: string,
  basePolicy: string,
): BrandedEmbed | undefined {
  const light = hexOrNull(branding.accentColor);
  const dark = hexOrNull(branding.accentColorDark) ?? light;
  if (light === null && branding.logo === null) return undefined;
  const style =
    (light === null
      ? ''
      : `:root{--link:${light}}@media (prefers-color-scheme:dark){:root[data-theme=auto]{--link:${dark}}}:root[data-theme=dark]{--link:${dark}}`) +
    (branding.logo === null
      ? ''
      : '.logo{flex:none;display:block;height:28px;width:auto;max-width:96px;object-fit:contain}');
  const uploaded = branding.logo?.startsWith('/') === true;
  return {
    style,
    logo:
      branding.logo === null
        ? ''
        : `<img class="logo" src="${escapeHtml(imageSource(branding.logo, basePath))}" alt="" data-testid="embed-logo">`,
    contentSecurityPolicy: withSources(basePolicy, {
      'style-src': [`'${cspHash(style)}'`],
      'img-src': [...(uploaded ? ["'self'"] : []), ...imageOrigins({ logo: branding.logo, favicon: null })],
    }),
  };
}

/** The header's title: the logo (its alt text the page's title) when the page has one, else the title itself. */
export function brandTitleHtml(branding: SnapshotBranding, title: string, basePath: string): string {
  if (branding.logo === null) return escapeHtml(title);
  return `<img class="brand-logo" src="${escapeHtml(imageSource(branding.logo, basePath))}" alt="${escapeHtml(title)}" data-testid="brand-logo">`;
}

/** The page's own links (its Discord, website, store…), in the header; '' without any. */
export function brandLinksHtml(i18n: Translator, branding: SnapshotBranding): string {
  const links = branding.links.filter((link) => isWebUrl(link.url));
  if (links.length === 0) return '';
  const items = links.map(
    (link) =>
      `<li><a href="${escapeHtml(link.url)}" rel="noopener">${isDiscord(link.url) ? DISCORD_ICON : ''}${escapeHtml(link.label)}</a></li>`,
  );
  return `<nav class="brand-links" aria-label="${escapeHtml(i18n.t('page.brand.links'))}" data-testid="brand-links"><ul>${items.join('')}</ul></nav>`;
}

/** The page's footer text (plain text, its line breaks kept); '' without any. */
export function brandFooterHtml(branding: SnapshotBranding): string {
  return branding.footerText
    ? `<p class="brand-footer" data-testid="brand-footer">${escapeHtml(branding.footerText)}</p>`
    : '';
}

/** A branding image's URL as a document links it: an uploaded one under the page's path, an external one as it is. */
export function imageSource(source: string, basePath: string): string {
  return source.startsWith('/') ? basePath + source : source;
}

/**
 * The policy with more sources for some directives (a directive it lacks is added): a page's own policy stays the shared
 * one plus exactly what its branding needs.
 */
export function withSources(policy: string, extra: Record<string, string[]>): string {
  const directives = policy.split('; ');
  const out = directives.map((directive) => {
    const more = extra[directive.slice(0, directive.indexOf(' '))] ?? [];
    return more.length === 0 ? directive : `${directive} ${more.join(' ')}`;
  });
  const present = new Set(directives.map((directive) => directive.slice(0, directive.indexOf(' '))));
  for (const [name, sources] of Object.entries(extra))
    if (!present.has(name) && sources.length > 0) out.push(`${name} ${sources.join(' ')}`);
  return out.join('; ');
}

/** The origins of the external logo and favicon ('self' covers uploaded ones), deduplicated. */
export function imageOrigins(branding: Pick<SnapshotBranding, 'logo' | 'favicon'>): string[] {
  const origins = new Set<string>();
  for (const source of [branding.logo, branding.favicon]) {
    if (source === null || source.startsWith('/')) continue;
    const origin = originOf(source);
    if (origin) origins.add(origin);
  }
  return [...origins];
}

/**
 * The accent as CSS variables for the light and dark themes, and the look of the branded header (logo, links, footer
 * text). The colours were checked by the branding schema; only #rrggbb ever reaches the stylesheet all the same.
 */
export function brandStyle(
  branding: Pick<SnapshotBranding, 'accentColor' | 'accentColorDark' | 'logo' | 'links' | 'footerText'>,
): string {
  const light = hexOrNull(branding.accentColor);
  const dark = hexOrNull(branding.accentColorDark) ?? light;
  const accent =
    light === null
      ? ''
      : `:root{--link:${light};--accent:${light}}@media (prefers-color-scheme:dark){:root{--link:${dark};--accent:${dark}}}`;
  const parts = branding.logo !== null || branding.links.length > 0 || branding.footerText ? BRAND_CSS : '';
  return accent + parts;
}

const BRAND_CSS = [
  '.brand-logo{display:block;max-height:48px;max-width:min(320px,100%);height:auto;width:auto}',
  '.brand-links ul{display:flex;flex-wrap:wrap;gap:4px 16px;margin:8px 0 0;padding:0;list-style:none;font-size:.9375rem;font-weight:500}',
  '.brand-links a{display:inline-flex;align-items:center;gap:6px}',
  '.brand-links svg{width:18px;height:18px;fill:currentColor}',
  '.brand-footer{flex-basis:100%;white-space:pre-line}',
].join('');

function hexOrNull(colour: string | null): string | null {
  return colour !== null && /^#[0-9a-f]{6}$/i.test(colour) ? colour.toLowerCase() : null;
}

function isWebUrl(url: string): boolean {
  return originOf(url) !== undefined;
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function isDiscord(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'discord.gg' || host === 'discord.com' || host.endsWith('.discord.com') || host === 'discordapp.com';
}

/** A simplified Discord mark (decorative: the link's label names it). */
const DISCORD_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M19.6 5.3A17 17 0 0 0 15.4 4l-.5 1.1a15.6 15.6 0 0 0-5.8 0L8.6 4a17 17 0 0 0-4.2 1.3C1.7 9.3 1 13.2 1.3 17a17 17 0 0 0 5.2 2.6l1.1-1.8c-.6-.2-1.2-.5-1.7-.9l.4-.3a12.2 12.2 0 0 0 11.4 0l.4.3c-.5.4-1.1.7-1.7.9l1.1 1.8a17 17 0 0 0 5.2-2.6c.4-4.4-.7-8.3-3.1-11.7zM8.5 14.7c-1 0-1.9-1-1.9-2.1s.8-2.1 1.9-2.1 1.9 1 1.9 2.1-.8 2.1-1.9 2.1zm7 0c-1 0-1.9-1-1.9-2.1s.8-2.1 1.9-2.1 1.9 1 1.9 2.1-.8 2.1-1.9 2.1z"/></svg>';
