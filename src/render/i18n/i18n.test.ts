// The message catalogues: every language has every message of English, each a valid ICU message taking English's
// arguments, with the plural forms its language needs; and the translator's dates, numbers and overall labels.
import { describe, expect, it } from 'vitest';
import { PAGE_LANGUAGES, type PageLanguage } from '../../domain/languages.js';
import { overallState } from '../../domain/states.js';
import { CATALOGUES, compileMessage, type MessageKey, translator } from './index.js';
import { en } from './messages/en.js';
import { countOfText, durationText, overallLabel, uptimeText } from './wording.js';

const OTHERS = PAGE_LANGUAGES.filter((language) => language !== 'en');
const KEYS = Object.keys(en).sort() as MessageKey[];

/** intl-messageformat's element types (its TYPE enum), as the parser numbers them. */
const ARGUMENT = 1;
const NUMBER = 2;
const SELECT = 5;
const PLURAL = 6;

interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
}

interface Shape {
  /** Every argument the message reads, by name, with how it reads it. */
  argumentKinds: Map<string, 'text' | 'number' | 'select' | 'plural'>;
  /** The cases of each plural argument (one, few, =0…), and of each select argument. */
  cases: Map<string, Set<string>>;
}

function shapeOf(message: string, language: PageLanguage): Shape {
  const shape: Shape = { argumentKinds: new Map(), cases: new Map() };
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      const name = element.value;
      if (name === undefined) continue;
      if (element.type === ARGUMENT) shape.argumentKinds.set(name, shape.argumentKinds.get(name) ?? 'text');
      else if (element.type === NUMBER) shape.argumentKinds.set(name, 'number');
      else if (element.type === SELECT || element.type === PLURAL) {
        shape.argumentKinds.set(name, element.type === SELECT ? 'select' : 'plural');
        const cases = shape.cases.get(name) ?? new Set<string>();
        for (const [option, { value }] of Object.entries(element.options ?? {})) {
          cases.add(option);
          walk(value);
        }
        shape.cases.set(name, cases);
      }
    }
  };
  walk(compileMessage(message, language).getAst() as unknown as Element[]);
  return shape;
}

/** Values for a message's arguments: a number for plurals and numbers, the first case for a select, a marker otherwise. */
function sampleValues(shape: Shape, count: number): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, kind] of shape.argumentKinds) {
    if (kind === 'plural' || kind === 'number') values[name] = count;
    else if (kind === 'select') values[name] = [...(shape.cases.get(name) ?? [])][0] ?? 'other';
    else values[name] = `«${name}»`;
  }
  return values;
}

describe('the message catalogues', () => {
  it('ship one catalogue per page language', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...PAGE_LANGUAGES].sort());
  });

  for (const language of OTHERS) {
    describe(language, () => {
      const catalogue = CATALOGUES[language];

      it("has exactly English's messages, each its own (not English's object)", () => {
        expect(Object.keys(catalogue).sort()).toEqual(KEYS);
        expect(catalogue).not.toBe(en);
      });

      it("parses every message as ICU, reading the same arguments as English's, the same way", () => {
        const failures: string[] = [];
        for (const key of KEYS.filter((k) => k in catalogue)) {
          let shape: Shape;
          try {
            shape = shapeOf(catalogue[key], language);
          } catch (error) {
            failures.push(`${key}: does not parse (${(error as Error).message})`);
            continue;
          }
          const english = shapeOf(en[key], 'en');
          // A count English reads as a number ({n, number}) may be a plural where the language's words agree with it.
          const kind = (k: string) => (k === 'plural' ? 'number' : k);
          const kinds = (s: Shape) => [...s.argumentKinds].sort().map(([name, k]) => `${name}:${kind(k)}`);
          if (kinds(shape).join() !== kinds(english).join())
            failures.push(`${key}: arguments ${kinds(shape)} instead of ${kinds(english)}`);
          for (const [name, kind] of english.argumentKinds) {
            if (kind !== 'select') continue;
            const theirs = [...(shape.cases.get(name) ?? [])].sort().join();
            const ours = [...(english.cases.get(name) ?? [])].sort().join();
            if (theirs !== ours) failures.push(`${key}: select ${name} has cases ${theirs} instead of ${ours}`);
          }
        }
        expect(failures).toEqual([]);
      });

      it('has every plural form its language needs where English or it has a plural (Polish and Russian: one, few, many, other)', () => {
        const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        const failures: string[] = [];
        for (const key of KEYS.filter((k) => k in catalogue)) {
          const english = shapeOf(en[key], 'en');
          const shape = shapeOf(catalogue[key], language);
          for (const [name, kind] of shape.argumentKinds) {
            if (kind !== 'plural' && english.argumentKinds.get(name) !== 'plural') continue;
            const cases = shape.cases.get(name) ?? new Set();
            const missing = needed.filter((category) => !cases.has(category));
            if (missing.length > 0) failures.push(`${key}: plural ${name} lacks ${missing.join(', ')}`);
          }
        }
        expect(failures).toEqual([]);
      });

      it('formats every message with its arguments: each text argument shows, no brace or apostrophe escape is left', () => {
        const failures: string[] = [];
        for (const key of KEYS.filter((k) => k in catalogue)) {
          const shape = shapeOf(catalogue[key], language);
          for (const count of [0, 1, 2, 5, 22, 1234]) {
            const values = sampleValues(shape, count);
            const text = String(compileMessage(catalogue[key], language).format(values));
            if (/[{}]/.test(text)) failures.push(`${key}: "${text}" keeps a brace`);
            for (const [name, kind] of shape.argumentKinds)
              if (kind === 'text' && !text.includes(`«${name}»`))
                failures.push(`${key}: "${text}" drops {${name}} (an apostrophe before a brace quotes it)`);
          }
        }
        expect(failures).toEqual([]);
      });
    });
  }
});

describe('the translator', () => {
  const TWELVE_UTC = Date.UTC(2026, 10, 20, 12, 0);

  it('shows a time in the page’s time zone, naming it, 24-hour, in the reader’s language', () => {
    expect(translator('en', 'Asia/Tokyo').dateTime(TWELVE_UTC)).toBe('20 Nov 2026, 21:00 GMT+9');
    expect(translator('en', 'UTC').dateTime(TWELVE_UTC)).toBe('20 Nov 2026, 12:00 UTC');
    expect(translator('de', 'Europe/Berlin').dateTime(TWELVE_UTC)).toBe('20. Nov. 2026, 13:00 MEZ');
    expect(translator('ru', 'UTC').dateTime(TWELVE_UTC, 'date')).toBe('20 нояб. 2026 г.');
    expect(translator('tr', 'Asia/Tokyo').dateTime(TWELVE_UTC, 'time')).toBe('21:00');
    // The same bytes on every server, whatever its own zone or locale.
    expect(translator('fr', 'America/New_York').dateTime(TWELVE_UTC)).toBe('20 nov. 2026, 07:00 UTC−5');
  });

  it('gives a span its shared parts once, and a calendar day as its UTC day', () => {
    expect(translator('en', 'UTC').dateRange(Date.UTC(2026, 10, 22, 20, 5), Date.UTC(2026, 10, 22, 22, 5))).toBe(
      '22 Nov 2026, 20:05–22:05 UTC',
    );
    expect(translator('de', 'Asia/Tokyo').calendarDay('2026-08-23')).toBe('23. Aug. 2026');
    expect(translator('pl', 'Pacific/Kiritimati').calendarDay('2026-01-01')).toBe('1 sty 2026');
  });

  it('writes uptime with two decimals, three when two would round up to 100%, and "no data" for null', () => {
    const english = translator('en');
    expect([1, 0.99926, 0.5, 0.99996, 0.9999999, 1 - 1e-13, 0].map((share) => uptimeText(english, share))).toEqual([
      '100.00%',
      '99.93%',
      '50.00%',
      '99.996%',
      '99.999%',
      '99.999%',
      '0.00%',
    ]);
    expect(uptimeText(english, null)).toBe('no data');
    expect(uptimeText(english, Number.NaN)).toBe('no data');
    expect(durationText(english, 45_000)).toBe('45 s');
    expect(durationText(english, 42 * 60_000)).toBe('42 min');
    expect(durationText(english, 3 * 86_400_000 + 4 * 3_600_000)).toBe('3 d 4 h');
  });

  it('makes its number formatter on first use, not when made (a translator made at start-up loads no locale data)', () => {
    const original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = new Proxy(original, {
      construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
        made++;
        return new target(...args);
      },
    });
    try {
      const polish = translator('pl', 'Pacific/Chatham');
      expect(made).toBe(0);
      expect(polish.t('duration.days', { days: 12 })).toBe('12 d.');
      expect(made).toBe(0);
      expect(polish.t('duration.days', { days: 12_345 })).toBe('12\u00a0345 d.');
      expect(made).toBe(1);
    } finally {
      Intl.NumberFormat = original;
    }
  });

  it('writes numbers, uptime and durations the reader’s way', () => {
    expect(countOfText(translator('de'), 1234, 2000)).toBe('1.234 / 2.000');
    expect(uptimeText(translator('de'), 0.99926)).toBe('99,93\u00a0%');
    expect(uptimeText(translator('tr'), 0.99996)).toBe('%99,996');
    expect(uptimeText(translator('en'), 1)).toBe('100.00%');
    expect(uptimeText(translator('ru'), null)).toBe(CATALOGUES.ru['uptime.noData']);
    expect(durationText(translator('en'), 135 * 60_000)).toBe('2 h 15 min');
    expect(durationText(translator('de'), 3 * 86_400_000 + 4 * 3_600_000)).toBe('3 T. 4 Std.');
  });

  it('says every overall label of src/domain/states.ts in every language, with Polish and Russian plurals', () => {
    const labels = [
      overallState({ components: ['down', 'down'], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['down', 'operational', 'operational'], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['down', ...Array(4).fill('operational')], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['operational'], pageImpacts: ['major'], pageMaintenance: false }),
      overallState({ components: ['maintenance', 'operational'], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['degraded', 'operational'], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['unknown'], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['unknown', 'operational'], pageImpacts: [], pageMaintenance: false }),
      overallState({ components: ['operational'], pageImpacts: [], pageMaintenance: false }),
    ].map((overall) => overall.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(overallLabel(translator('en'), label)).toBe(label);
    for (const language of OTHERS)
      for (const label of labels)
        expect(overallLabel(translator(language), label), `${language}: ${label}`).not.toBe(label);
    expect(overallLabel(translator('pl'), 'Partial outage: 1 of 3 components down')).toBe(
      'Częściowa awaria: nie działa 1 z 3 komponentów',
    );
    expect(overallLabel(translator('pl'), 'Partial outage: 1 of 5 components down')).toBe(
      'Częściowa awaria: nie działa 1 z 5 komponentów',
    );
    expect(overallLabel(translator('ru'), 'Partial outage: 1 of 3 components down')).toBe(
      'Частичный сбой: не работает 1 из 3 компонентов',
    );
    expect(overallLabel(translator('de'), 'All systems operational')).toBe('Alle Systeme betriebsbereit');
    // A label of another shape is shown as it is.
    expect(overallLabel(translator('de'), 'Something else')).toBe('Something else');
  });
});
