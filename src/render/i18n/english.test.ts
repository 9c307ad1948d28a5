// English without Intl (english.ts): the same text Intl writes, over many values, and no ICU formatter made for an
// English page in UTC, nor to check a time zone.

import { IntlMessageFormat } from 'intl-messageformat';
import { afterEach, describe, expect, it } from 'vitest';
import { isTimeZone } from '../../domain/languages.js';
import { ENGLISH_CARDINAL, englishInteger, englishPercent, englishUtcDate } from './english.js';
import { CATALOGUES, compileMessage, FORMAT_LOCALE, type MessageKey, translator } from './index.js';
import { countOfText, durationText, uptimeText } from './wording.js';

/** A seeded generator, so a failure names a value that fails again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const INTL_STYLES: Record<'dateTime' | 'date' | 'time', Intl.DateTimeFormatOptions> = {
  dateTime: {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

describe('English without Intl writes what Intl writes', () => {
  it('whole numbers, with their sign and grouping, up to 2^53', () => {
    const intl = new Intl.NumberFormat('en-GB');
    const next = random(7);
    const values = [
      0,
      -0,
      1,
      -1,
      999,
      1000,
      -1000,
      999_999,
      1_000_000,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ];
    for (let i = 0; i < 5000; i++) values.push(Math.round((next() - 0.5) * 10 ** Math.floor(next() * 16)));
    for (const value of values) expect(englishInteger(value), String(value)).toBe(intl.format(value));
    for (const value of [1.5, -0.25, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY])
      expect(englishInteger(value)).toBeUndefined();
  });

  it('dates and times in UTC, in each style, across months, days, hours and minutes of years 1000 to 9999', () => {
    const next = random(11);
    const times = [
      Date.UTC(2026, 8, 5, 7, 3),
      Date.UTC(2026, 0, 1),
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      1.5e12 + 0.7,
    ];
    for (let i = 0; i < 3000; i++)
      times.push(Date.UTC(1000, 0, 1) + Math.floor(next() * (Date.UTC(9999, 11, 31) - Date.UTC(1000, 0, 1))));
    for (const style of ['dateTime', 'date', 'time'] as const) {
      const intl = new Intl.DateTimeFormat('en-GB', { ...INTL_STYLES[style], timeZone: 'UTC' });
      for (const ms of times) expect(englishUtcDate(ms, style), `${style} ${ms}`).toBe(intl.format(ms));
    }
    for (const ms of [Date.UTC(999, 11, 31), Date.UTC(10_000, 0, 1), Date.UTC(-5, 0, 1), Number.NaN])
      expect(englishUtcDate(ms, 'dateTime')).toBeUndefined();
  });

  it('percentages and the cardinal plural', () => {
    for (const digits of ['0.00', '99.93', '100.00', '99.996', '12.5']) {
      const fraction = digits.length - digits.indexOf('.') - 1;
      const intl = new Intl.NumberFormat('en-GB', {
        style: 'percent',
        minimumFractionDigits: fraction,
        maximumFractionDigits: fraction,
      });
      expect(englishPercent(digits)).toBe(intl.format(Number(digits) / 100));
    }
    const rules = new Intl.PluralRules('en-GB');
    for (const value of [0, 1, -1, 2, 1.5, 0.5, 11, 21, 1e9, -0, Number.NaN, Number.POSITIVE_INFINITY])
      expect(ENGLISH_CARDINAL.select(value), String(value)).toBe(rules.select(value));
  });

  it('every English message, with the numbers a page gives them, as intl-messageformat writes it with Intl', () => {
    const next = random(3);
    for (const key of Object.keys(CATALOGUES.en) as MessageKey[]) {
      const ours = compileMessage(CATALOGUES.en[key], 'en');
      const intl = new IntlMessageFormat(CATALOGUES.en[key], 'en-GB', undefined, { ignoreTag: true });
      for (const count of [0, 1, 2, 5, 21, 1234, 1_000_000, Math.floor(next() * 1e7)]) {
        const values = Object.fromEntries(argumentNames(CATALOGUES.en[key]).map((name) => [name, count]));
        let expected: unknown;
        try {
          expected = intl.format(values);
        } catch {
          continue; // a select's argument is not a number: nothing to compare
        }
        expect(ours.format(values), `${key} with ${count}`).toBe(expected);
      }
    }
  });
});

/** The names a message reads, for values: every {name …} in it. */
function argumentNames(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string))];
}

describe('an English page in UTC and a time zone check make no ICU formatter', () => {
  const originals = {
    NumberFormat: Intl.NumberFormat,
    DateTimeFormat: Intl.DateTimeFormat,
    PluralRules: Intl.PluralRules,
  };
  /** What the formatters do: a translator keeps its formatters (and tests share translators), so use is counted too. */
  const METHODS = {
    NumberFormat: ['format', 'formatToParts'],
    DateTimeFormat: ['format', 'formatToParts', 'formatRange'],
    PluralRules: ['select'],
  } as const;
  const descriptors = Object.entries(METHODS).flatMap(([name, methods]) =>
    methods.map((method) => {
      const prototype = originals[name as keyof typeof originals].prototype as object;
      return {
        name,
        method,
        prototype,
        descriptor: Object.getOwnPropertyDescriptor(prototype, method) as PropertyDescriptor,
      };
    }),
  );
  const made: string[] = [];
  const used: string[] = [];
  const watch = () => {
    for (const name of Object.keys(originals) as (keyof typeof originals)[])
      (Intl as Record<string, unknown>)[name] = new Proxy(originals[name], {
        construct(target, args: unknown[]) {
          made.push(name);
          return Reflect.construct(target, args);
        },
      });
    for (const { name, method, prototype, descriptor } of descriptors) {
      const { get, value } = descriptor;
      Object.defineProperty(prototype, method, {
        ...descriptor,
        ...(get
          ? {
              get(this: unknown) {
                used.push(`${name}.${method}`);
                return get.call(this);
              },
            }
          : {
              value(this: unknown, ...args: unknown[]) {
                used.push(`${name}.${method}`);
                return (value as (...a: unknown[]) => unknown).apply(this, args);
              },
            }),
      });
    }
  };
  afterEach(() => {
    Object.assign(Intl, originals);
    for (const { method, prototype, descriptor } of descriptors) Object.defineProperty(prototype, method, descriptor);
    made.length = 0;
    used.length = 0;
  });

  it('formats what a page shows (counts, dates, days, uptime, durations, plurals) without one', () => {
    watch();
    const english = translator('en', 'UTC');
    expect(countOfText(english, 12_345, 20_000)).toBe('12,345 / 20,000');
    expect(english.dateTime(Date.UTC(2026, 8, 5, 7, 3))).toBe('5 Sept 2026, 07:03 UTC');
    expect(english.dateTime(Date.UTC(2026, 8, 5, 7, 3), 'time')).toBe('07:03');
    expect(english.calendarDay('2026-11-24')).toBe('24 Nov 2026');
    expect(uptimeText(english, 0.99926)).toBe('99.93%');
    expect(durationText(english, 135 * 60_000)).toBe('2 h 15 min');
    expect(english.number(1_234_567)).toBe('1,234,567');
    expect(english.t('overall.partialOutageCount', { down: 1_200, total: 1_500 })).toBe(
      'Partial outage: 1,200 of 1,500 components down',
    );
    expect(made).toEqual([]);
    expect(used).toEqual([]);
    // A page in another zone, or a fraction, still goes to Intl.
    expect(translator('en', 'Asia/Tokyo').dateTime(Date.UTC(2026, 8, 5, 7, 3))).toBe('5 Sept 2026, 16:03 GMT+9');
    expect(english.number(1.5)).toBe('1.5');
    expect(used).toEqual(['DateTimeFormat.format', 'NumberFormat.format']);
  });

  it('knows UTC and the canonical zones without one, and asks Intl about other spellings', () => {
    watch();
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(made).toEqual([]);
    expect(isTimeZone('europe/berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(made).toEqual(['DateTimeFormat', 'DateTimeFormat']);
  });

  it('resolves each catalogue’s locale as intl-messageformat itself would, without asking NumberFormat', () => {
    watch();
    const asked = Intl.NumberFormat.supportedLocalesOf;
    let calls = 0;
    Intl.NumberFormat.supportedLocalesOf = (...args) => {
      calls++;
      return asked(...args);
    };
    try {
      for (const tag of Object.values(FORMAT_LOCALE)) {
        expect(IntlMessageFormat.resolveLocale(tag)?.toString()).toBe(
          new Intl.Locale(asked(tag)[0] as string).toString(),
        );
        expect(calls).toBe(0);
      }
      expect(IntlMessageFormat.resolveLocale('en-US')?.toString()).toBe('en-US');
      expect(calls).toBe(1);
    } finally {
      Intl.NumberFormat.supportedLocalesOf = asked;
    }
  });

  it('lists as canonical only zones Intl accepts', () => {
    for (const zone of Intl.supportedValuesOf('timeZone'))
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone }), zone).not.toThrow();
  });
});
