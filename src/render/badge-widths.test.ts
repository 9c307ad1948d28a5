// badge-maker's text measure in anafanafo's place: the same widths as anafanafo for every font, each font's table
// built only when asked for, and a real badge measured through it.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BADGE_FONT_FILES, lazyMeasure } from './badge-widths.js';

const require = createRequire(import.meta.url);
const badgeMakerEntry = require.resolve('badge-maker');
const anafanafoFile = createRequire(badgeMakerEntry).resolve('anafanafo');

/** A width, or the error that measuring threw (without guessing, a character with no known width is an error). */
function outcome(measure: () => number): number | string {
  try {
    return measure();
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

/** anafanafo itself, loaded anew from its file, whatever the module cache holds. */
function genuineAnafanafo(): (text: string, options: { font: string; guess?: boolean }) => number {
  const cached = require.cache[anafanafoFile];
  delete require.cache[anafanafoFile];
  try {
    return require(anafanafoFile);
  } finally {
    if (cached) require.cache[anafanafoFile] = cached;
    else delete require.cache[anafanafoFile];
  }
}

/** Text a badge may hold: words, digits, accents, CJK, emoji, control characters. */
const SAMPLES = [
  'status',
  'operational',
  '12 / 64 players',
  'Ünïcödé – ñ',
  '服务器在线',
  '🎮 up',
  'a\u0007b',
  '',
  'W'.repeat(200),
];

describe('the lazy badge text measure', () => {
  it('measures as anafanafo does, in every font, with and without guessing', () => {
    const genuine = genuineAnafanafo();
    const measure = lazyMeasure(anafanafoFile);
    for (const font of Object.keys(BADGE_FONT_FILES))
      for (const text of SAMPLES)
        for (const guess of [true, false])
          expect(
            outcome(() => measure(text, { font, guess })),
            `${font}: ${text}`,
          ).toBe(outcome(() => genuine(text, { font, guess })));
    expect(() => measure('x', { font: '12px Comic Sans' })).toThrow(/Unknown font "12px Comic Sans"/);
  });

  it('builds a font’s table only when a badge first asks for it', () => {
    const built: string[] = [];
    const measure = lazyMeasure(anafanafoFile, (font) => built.push(font));
    expect(built).toEqual([]);
    measure('operational', { font: '11px Verdana' });
    measure('down', { font: '11px Verdana' });
    expect(built).toEqual(['11px Verdana']);
    measure('players', { font: 'bold 11px Helvetica' });
    expect(built).toEqual(['11px Verdana', 'bold 11px Helvetica']);
  });

  it('is what badge-maker measures with, once installed before it loads: the same badges, one table built', () => {
    // Each in a process of its own: an ES module, once loaded, keeps what it imported for the life of the process.
    const genuine = badgesInChild(false);
    const lazy = badgesInChild(true);
    expect(lazy.built).toEqual(['11px Verdana', 'bold 11px Helvetica']);
    expect(genuine.built).toEqual([]);
    expect(lazy.svgs).toEqual(genuine.svgs);
    expect(lazy.svgs).toHaveLength(3);
  });
});

/** Flat and social badges made by badge-maker in a child process, with anafanafo itself loaded first or the lazy measure. */
function badgesInChild(lazily: boolean): { built: string[]; svgs: string[] } {
  const script = `
    import { createRequire } from 'node:module';
    import { installLazyBadgeWidths } from ${JSON.stringify(new URL('./badge-widths.ts', import.meta.url).pathname)};
    const require = createRequire(${JSON.stringify(import.meta.url)});
    const entry = require.resolve('badge-maker');
    if (!${lazily}) require(createRequire(entry).resolve('anafanafo'));
    const built = [];
    installLazyBadgeWidths(require, entry, (font) => built.push(font));
    const { makeBadge } = require('badge-maker');
    const svgs = [
      makeBadge({ label: 'status', message: 'operational', color: 'brightgreen' }),
      makeBadge({ label: 'players', message: '12 / 64', color: 'blue' }),
      makeBadge({ label: 'Ünïcödé 服务器', message: 'down', color: 'red', style: 'social' }),
    ];
    console.log(JSON.stringify({ built, svgs }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { built: string[]; svgs: string[] };
}
