// What the Open Graph image draws with: the layout engine and the rasterizer, loaded on first use, and the Inter fonts
// (read once from @fontsource/inter), with the text they can draw.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Font } from 'satori';
import { importPackage } from '../runtime/launcher.js';

/**
 * The layout engine and the rasterizer, loaded on the first og.png (or prepareOgImage) rather than at start-up: together
 * with their WebAssembly and native addon they are the largest thing the server would otherwise load before listening.
 */
let loadedEngines:
  | Promise<{ satori: typeof import('satori').default; renderAsync: typeof import('@resvg/resvg-js').renderAsync }>
  | undefined;

export function engines() {
  loadedEngines ??= Promise.all([
    importPackage<typeof import('satori')>('satori'),
    importPackage<typeof import('@resvg/resvg-js')>('@resvg/resvg-js'),
  ]).then(([layout, raster]) => ({ satori: layout.default, renderAsync: raster.renderAsync }));
  loadedEngines.catch(() => {
    loadedEngines = undefined;
  });
  return loadedEngines;
}

/*
 * The fonts ship with the @fontsource/inter package (WOFF: satori reads TTF, OTF and WOFF, not WOFF2); nothing is
 * taken from the system or the network. They are read once per process, on first use, and kept: the same immutable
 * bytes serve every page, so this is a cache of package files rather than state. Satori parses a font list once per
 * array, so each list below is one array for the life of the process. Most pages are written in Latin script alone;
 * they get the Latin subset only, which halves the first render; other scripts get every subset.
 */
const LATIN_SUBSETS = ['latin'] as const;
const ALL_SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'greek'] as const;
const FONT_WEIGHTS = [400, 700] as const;
export const FONT_FAMILY = ALL_SUBSETS.map((subset) => `"Inter ${subset}"`).join(', ');
const fontLists = new Map<'latin' | 'all', Promise<Font[]>>();

export function ogFonts(latin: boolean): Promise<Font[]> {
  const key = latin ? 'latin' : 'all';
  let list = fontLists.get(key);
  if (!list) {
    list = loadFonts(latin ? LATIN_SUBSETS : ALL_SUBSETS);
    list.catch(() => fontLists.delete(key));
    fontLists.set(key, list);
  }
  return list;
}

async function loadFonts(subsets: readonly string[]): Promise<Font[]> {
  const here = createRequire(import.meta.url);
  const fonts: Promise<Font>[] = [];
  for (const subset of subsets)
    for (const weight of FONT_WEIGHTS) {
      const file = here.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`);
      // One family name per subset: satori falls back across names (see FONT_FAMILY), not across files of one name.
      fonts.push(readFile(file).then((data) => ({ name: `Inter ${subset}`, data, weight, style: 'normal' as const })));
    }
  return Promise.all(fonts);
}

/** What Inter's Latin subset covers (its unicode-range, less a few rare marks). */
const LATIN = /^[\u0000-\u00ff\u0131\u0152\u0153\u02c6\u02da\u02dc\u2000-\u206f\u20ac\u2122\u2191\u2193\u2212\u2215]*$/;

/** Whether Inter's Latin subset covers every character of the text (Basic Latin, Latin-1, general punctuation). */
export function latinText(text: string): boolean {
  return LATIN.test(text);
}

/** Characters no shipped subset covers (CJK, emoji…): dropped rather than drawn as "no glyph" boxes. */
const UNCOVERED =
  /[^\u0000-\u03ff\u0400-\u045f\u0490\u0491\u04b0\u04b1\u1d00-\u1dbf\u1e00-\u1e9f\u1ef2-\u1eff\u2000-\u206f\u20a0-\u20c0\u2113\u2116\u2122\u2191\u2193\u2212\u2215\u2c60-\u2c7f\ua720-\ua7ff]/gu;

/** Text the fonts can draw, cut at a character budget (so layout never depends on how a font measures a 300-letter word). */
export function clip(raw: string, max: number): string {
  const text = raw.replace(UNCOVERED, '').replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return chars.length <= max
    ? text
    : chars
        .slice(0, max - 1)
        .join('')
        .trimEnd() + '…';
}
