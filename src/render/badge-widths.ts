// badge-maker measures a badge's text with anafanafo, which builds the width tables of all four fonts it knows as it
// loads: ~48,000 small arrays, 3.9 MiB of heap held for the life of the process, where a badge of the default style
// reads one table (a social badge another). In anafanafo's place, before badge-maker first loads, goes the same
// measure over the same data and the same consumer, each font's table built when a badge first asks for it
// (badge-widths.test.ts compares the widths with anafanafo's own).
import { createRequire } from 'node:module';

/** anafanafo's fonts and their data files, as its index names them. */
export const BADGE_FONT_FILES: Readonly<Record<string, string>> = {
  '10px Verdana': 'verdana-10px-normal.json',
  'bold 10px Verdana': 'verdana-10px-bold.json',
  '11px Verdana': 'verdana-11px-normal.json',
  'bold 11px Helvetica': 'helvetica-11px-bold.json',
};

interface Consumer {
  widthOf(text: string, options?: { guess?: boolean }): number;
}

export type Measure = (text: string, options: { font: string; guess?: boolean }) => number;

/** anafanafo's measure with its tables built on first use; `loaded` is told each font whose table is built. */
export function lazyMeasure(anafanafoFile: string, loaded: (font: string) => void = () => {}): Measure {
  const requireNear = createRequire(anafanafoFile);
  const { createConsumer } = requireNear('char-width-table-consumer') as { createConsumer(data: unknown): Consumer };
  const consumers = new Map<string, Consumer>();
  return (text, { font, ...rest }) => {
    let consumer = consumers.get(font);
    if (!consumer) {
      const file = Object.hasOwn(BADGE_FONT_FILES, font) ? BADGE_FONT_FILES[font] : undefined;
      if (!file) throw Error(`Unknown font "${font}", expected ${Object.keys(BADGE_FONT_FILES).join(', ')}`);
      consumer = createConsumer(requireNear(`./data/${file}`));
      consumers.set(font, consumer);
      loaded(font);
    }
    return consumer.widthOf(text, { ...rest });
  };
}

/**
 * Puts the lazy measure in the module cache where badge-maker's `import anafanafo` finds it (Node hands an ES module
 * that imports a CommonJS one the module already in require.cache). Call before badge-maker first loads; a no-op if
 * anafanafo is already loaded.
 */
export function installLazyBadgeWidths(
  requireFrom: NodeJS.Require,
  badgeMakerEntry: string,
  loaded?: (font: string) => void,
): void {
  const anafanafoFile = createRequire(badgeMakerEntry).resolve('anafanafo');
  if (requireFrom.cache[anafanafoFile]) return;
  const Module = requireFrom('node:module') as { new (id: string): NodeJS.Module };
  const module = new Module(anafanafoFile);
  module.filename = anafanafoFile;
  module.loaded = true;
  module.exports = lazyMeasure(anafanafoFile, loaded);
  requireFrom.cache[anafanafoFile] = module;
}
