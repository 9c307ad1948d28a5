// A page's branding: accent colour (contrast-checked), logo and favicon, links in the header, footer text, and whether
// "Powered by Warden" shows. Custom CSS is kept beside it (Page.customCss) and served as the page's own stylesheet.
import { z } from 'zod';

/**
 * Backgrounds the accent is drawn on (html-layout.ts): in light, cards are white and the page around them #f6f8fa
 * (links such as the chart ranges sit on the page itself), so the check uses the darker of the two; in dark, #151b23.
 */
export const LIGHT_BACKGROUND = '#f6f8fa';
export const DARK_BACKGROUND = '#151b23';
/** WCAG 2.x AA for normal text: the accent colours links and buttons' text. */
export const AA_CONTRAST = 4.5;

export const BRANDING_LIMITS = {
  links: 5,
  linkLabelChars: 40,
  footerChars: 500,
  customCssBytes: 32 * 1024,
  logoBytes: 256 * 1024,
  faviconBytes: 64 * 1024,
} as const;

export interface HeaderLink {
  label: string;
  url: string;
}

export interface PageBranding {
  /** #rrggbb, at least AA contrast on the light background; the dark theme uses a lightened version (accentForDark). */
  accentColor: string | null;
  /** An external logo (https); an uploaded one (page_assets "logo") wins over it. */
  logoUrl: string | null;
  faviconUrl: string | null;
  links: HeaderLink[];
  footerText: string | null;
  hidePoweredBy: boolean;
}

export const EMPTY_BRANDING: PageBranding = Object.freeze({
  accentColor: null,
  logoUrl: null,
  faviconUrl: null,
  links: [],
  footerText: null,
  hidePoweredBy: false,
}) as PageBranding;

/** Page-relative paths: the page's uploaded images (`/assets/{name}`) and its custom stylesheet. */
export const PAGE_ASSET_PATH = '/assets';
export const CUSTOM_CSS_PATH = '/custom.css';

/** The names under which a page stores uploaded images. */
export const PAGE_ASSET_NAMES = ['logo', 'favicon'] as const;
export type PageAssetName = (typeof PAGE_ASSET_NAMES)[number];

/** Hex digits of an asset's digest in its versioned path: a new image is a new URL, so an old one may be cached for good. */
export const ASSET_VERSION_CHARS = 16;

/** The page-relative, versioned path of an uploaded image: `/assets/logo?v=<first 16 hex digits of its SHA-256>`. */
export function pageAssetPath(name: PageAssetName, digest: string): string {
  return `${PAGE_ASSET_PATH}/${name}?v=${digest.slice(0, ASSET_VERSION_CHARS)}`;
}

/** The version in an image source the snapshot gives (`/assets/logo?v=…`), or undefined for an external URL or none. */
export function pageAssetVersion(source: string | null, name: PageAssetName): string | undefined {
  const prefix = `${PAGE_ASSET_PATH}/${name}?v=`;
  return source?.startsWith(prefix) ? source.slice(prefix.length) : undefined;
}

/** Stored image types, recognised by their bytes (never by a declared type). */
export const PAGE_ASSET_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/svg+xml',
  'image/x-icon',
] as const;
export type PageAssetType = (typeof PAGE_ASSET_TYPES)[number];

export interface PageAsset {
  pageId: string;
  name: PageAssetName;
  contentType: PageAssetType;
  body: Buffer;
  /** SHA-256 hex of body. */
  digest: string;
  updatedAt: number;
}

/** Relative luminance of #rrggbb (WCAG 2.x). */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two #rrggbb colours, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent for the dark theme: the colour mixed toward white until it reaches AA on the dark background. */
export function accentForDark(hex: string): string {
  for (let step = 0; step <= 20; step++) {
    const mixed = mix(hex, '#ffffff', step / 20);
    if (contrastRatio(mixed, DARK_BACKGROUND) >= AA_CONTRAST) return mixed;
  }
  return '#ffffff';
}

function mix(a: string, b: string, t: number): string {
  const parts = [0, 1, 2].map((i) => {
    const x = Number.parseInt(a.slice(1 + i * 2, 3 + i * 2), 16);
    const y = Number.parseInt(b.slice(1 + i * 2, 3 + i * 2), 16);
    return Math.round(x + (y - x) * t)
      .toString(16)
      .padStart(2, '0');
  });
  return `#${parts.join('')}`;
}

const HEX = /^#[0-9a-f]{6}$/;

export const accentColorSchema = z
  .string()
  .trim()
  .toLowerCase()
  .overwrite((value) => (/^#[0-9a-f]{3}$/.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value))
  .regex(HEX, { error: 'expected a colour such as #4752c4' })
  .check((ctx) => {
    const ratio = contrastRatio(ctx.value, LIGHT_BACKGROUND);
    if (ratio < AA_CONTRAST)
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `contrast ${ratio.toFixed(2)}:1 against the page's light background (${LIGHT_BACKGROUND}) is below WCAG AA (${AA_CONTRAST}:1): choose a darker colour`,
      });
  })
  .describe(
    'Links, buttons and highlights; must reach WCAG AA (4.5:1) against the light page background #f6f8fa. The dark theme lightens it to the same contrast.',
  );

/** http(s) only: no javascript:, data: or relative URLs reach a page. */
export const publicUrlSchema = z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }).max(2048);

export const headerLinkSchema = z
  .object({
    label: z.string().trim().min(1, { error: 'must not be empty' }).max(BRANDING_LIMITS.linkLabelChars),
    url: publicUrlSchema,
  })
  .strict();

export const brandingSchema = z
  .object({
    accentColor: accentColorSchema.nullable().optional(),
    logoUrl: publicUrlSchema
      .nullable()
      .optional()
      .describe('An image shown in the header instead of the title; an uploaded logo wins over it.'),
    faviconUrl: publicUrlSchema.nullable().optional(),
    links: z
      .array(headerLinkSchema)
      .max(BRANDING_LIMITS.links)
      .optional()
      .describe(`Up to ${BRANDING_LIMITS.links} links in the header: a Discord invite, the website, the store…`),
    footerText: z
      .string()
      .trim()
      .max(BRANDING_LIMITS.footerChars)
      .nullable()
      .optional()
      .describe('Plain text under the page.'),
    hidePoweredBy: z.boolean().optional().describe('Hides "Powered by Warden" in the footer.'),
  })
  .strict()
  .describe("The page's look: accent colour, logo, favicon, header links, footer.");

export type BrandingInput = z.output<typeof brandingSchema>;

/** Stored branding from an input: what it leaves out falls back to `base` (the stored value on a patch). */
export function brandingOf(input: BrandingInput | undefined, base: PageBranding = EMPTY_BRANDING): PageBranding {
  if (!input) return base;
  return {
    accentColor: input.accentColor === undefined ? base.accentColor : input.accentColor,
    logoUrl: input.logoUrl === undefined ? base.logoUrl : input.logoUrl,
    faviconUrl: input.faviconUrl === undefined ? base.faviconUrl : input.faviconUrl,
    links: input.links ?? base.links,
    footerText: input.footerText === undefined ? base.footerText : input.footerText || null,
    hidePoweredBy: input.hidePoweredBy ?? base.hidePoweredBy,
  };
}

export const customCssSchema = z
  .string()
  .max(BRANDING_LIMITS.customCssBytes)
  .refine((css) => Buffer.byteLength(css) <= BRANDING_LIMITS.customCssBytes, {
    error: `must be at most ${BRANDING_LIMITS.customCssBytes / 1024} KB`,
  })
  .refine((css) => !/<\/style/i.test(css), { error: 'must not contain "</style"' })
  .describe(
    `Served as the page's own stylesheet (at most ${BRANDING_LIMITS.customCssBytes / 1024} KB), under the page's Content-Security-Policy.`,
  );
