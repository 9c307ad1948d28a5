// Localised wording for every public form of a page: one ICU message catalogue per language (messages/*.ts), compiled
// once per language and message, and dates in the page's time zone in the reader's locale.
import { type Formatters, IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LANGUAGE, PAGE_LANGUAGES, type PageLanguage } from '../../domain/languages.js';
import { ENGLISH_CARDINAL, englishInteger, englishUtcDate } from './english.js';
import { de } from './messages/de.js';
import { type Catalogue, en, type MessageKey } from './messages/en.js';
import { es } from './messages/es.js';
import { fr } from './messages/fr.js';
import { pl } from './messages/pl.js';
import { ptBR } from './messages/pt-BR.js';
import { ru } from './messages/ru.js';
import { tr } from './messages/tr.js';

export type { Catalogue, MessageKey } from './messages/en.js';

/** Every shipped catalogue; a language missing here, or a key missing in a catalogue, fails to compile. */
export const CATALOGUES: Record<PageLanguage, Catalogue> = { en, de, fr, es, 'pt-BR': ptBR, pl, ru, tr };

export type MessageValues = Record<string, string | number | boolean | null | undefined>;

export interface Translator {
  readonly language: PageLanguage;
  /** The IANA time zone dates are shown in (the page's). */
  readonly timeZone: string;
  /** The message in this language, with its arguments; plain text (callers escape it for their format). */
  t(key: MessageKey, values?: MessageValues): string;
  /** A number in the reader's locale ("1,234" / "1.234"); pass `options` as a constant (formatters are kept by it). */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /**
   * A point in time in the page's time zone, in the reader's locale, 24-hour: `dateTime` "20 Nov 2026, 21:05 GMT+9"
   * (names its zone), `date` "20 Nov 2026", `time` "21:05".
   */
  dateTime(ms: number, style?: 'dateTime' | 'date' | 'time'): string;
  /** A span of time, the shared parts once: "22 Nov 2026, 20:05–22:05 UTC". */
  dateRange(startMs: number, endMs: number): string;
  /** A calendar day given as YYYY-MM-DD (the uptime strip's UTC days), as "20 Nov 2026". */
  calendarDay(date: string): string;
}

/**
 * The locale Intl formats in, per language: English dates read "20 Nov 2026, 14:05" (day first, 24-hour), the way a
 * status page's international readers take them without doubt; the others are their own.
 */
export const FORMAT_LOCALE: Record<PageLanguage, string> = {
  en: 'en-GB',
  de: 'de',
  fr: 'fr',
  es: 'es',
  'pt-BR': 'pt-BR',
  pl: 'pl',
  ru: 'ru',
  tr: 'tr',
};

/**
 * intl-messageformat resolves each message's locale through Intl.NumberFormat.supportedLocalesOf, whose first call
 * loads ICU's number data (~6 MiB, held for the life of the process). The catalogues' locales are ICU's own tags and
 * resolve to themselves (english.test.ts checks it), so they skip that call; any other tag goes the library’s way.
 */
const FORMAT_LOCALES = new Set(Object.values(FORMAT_LOCALE));
const libraryResolveLocale = IntlMessageFormat.resolveLocale;
IntlMessageFormat.resolveLocale = (locales) =>
  typeof locales === 'string' && FORMAT_LOCALES.has(locales) ? new Intl.Locale(locales) : libraryResolveLocale(locales);

/** A compiled message: its text for the given arguments. */
type Formatter = (values: MessageValues | undefined) => string;

const compiled = new Map<string, Formatter>();
const translators = new Map<string, Translator>();
/** Translators kept at most (language × time zone pairs actually used; each holds a few Intl formatters). */
const MAX_TRANSLATORS = 512;

/** The translator of a language and time zone; the same object for the same pair (memoized, the set is small). */
export function translator(language: PageLanguage = DEFAULT_LANGUAGE, timeZone = 'UTC'): Translator {
  const id = `${language}\u0000${timeZone}`;
  let known = translators.get(id);
  if (!known) {
    known = createTranslator(language, timeZone);
    if (translators.size >= MAX_TRANSLATORS) translators.clear();
    translators.set(id, known);
  }
  return known;
}

/** The compiled message; messages are plain text, so "<" is a character, never a rich-text tag. */
export function compileMessage(source: string, language: PageLanguage): IntlMessageFormat {
  return new IntlMessageFormat(source, FORMAT_LOCALE[language], undefined, {
    ignoreTag: true,
    ...(language === 'en' ? { formatters: ENGLISH_FORMATTERS } : {}),
  });
}

/** Intl formatters made once per set of arguments (intl-messageformat's own formatters are memoized the same way). */
function memoized<T>(make: (...args: never[]) => T): (...args: unknown[]) => T {
  const made = new Map<string, T>();
  return (...args) => {
    const key = JSON.stringify(args);
    let value = made.get(key);
    if (value === undefined) {
      value = (make as (...args: unknown[]) => T)(...args);
      if (made.size < 64) made.set(key, value);
    }
    return value;
  };
}

/** English messages: a plural's # and its choice of form without Intl (english.ts); other formats through it. */
const ENGLISH_FORMATTERS: Formatters = (() => {
  const intlNumber = memoized(
    (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  );
  const plainNumber = (locales: string | string[] | undefined) => ({
    format: (value: number) => englishInteger(value) ?? intlNumber(locales).format(value),
  });
  const intlPlural = memoized(
    (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
  );
  return {
    getNumberFormat: (locales, options) =>
      (options === undefined ? plainNumber(locales) : intlNumber(locales, options)) as Intl.NumberFormat,
    getDateTimeFormat: memoized(
      (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
    ),
    getPluralRules: (locales, options) =>
      options?.type === 'ordinal' ? intlPlural(locales, options) : (ENGLISH_CARDINAL as Intl.PluralRules),
  };
})();

const DATE_STYLES: Record<'dateTime' | 'date' | 'time', Intl.DateTimeFormatOptions> = {
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

/** intl-messageformat's element types: text, a plain {argument}, and those whose options hold more elements. */
const LITERAL = 0;
const ARGUMENT = 1;

interface Element {
  type: number;
  value: string;
  options?: Record<string, { value: Element[] }>;
}

/**
 * A message as a function. A number given to a plain {argument} is written in the language's locale ("1.234"), as
 * {n, number} and a plural's # are (intl-messageformat alone would write "1234"). Most messages are text and plain
 * arguments: those are joined directly, since a page formats thousands (one per day of each uptime strip).
 */
function formatterOf(source: string, language: PageLanguage, number: (value: number) => string): Formatter {
  const format = compileMessage(source, language);
  const ast = format.getAst() as unknown as Element[];
  if (ast.every((element) => element.type === LITERAL || element.type === ARGUMENT)) {
    const parts = ast.map((element) => ({ literal: element.type === LITERAL, value: element.value }));
    return (values) => {
      let text = '';
      for (const part of parts) {
        if (part.literal) text += part.value;
        else {
          const value = values?.[part.value];
          if (value === undefined) throw new Error(`The message "${source}" needs a value for {${part.value}}`);
          text += typeof value === 'number' ? number(value) : String(value);
        }
      }
      return text;
    };
  }
  // Plain arguments are formatted here first, unless the same name also selects a plural or a case.
  const plain = new Set<string>();
  const selecting = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (element.type === ARGUMENT) plain.add(element.value);
      else if (element.type !== LITERAL && element.value !== undefined) selecting.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(ast);
  const preformatted = [...plain].filter((name) => !selecting.has(name));
  return (values) => {
    const given: Record<string, string | number | boolean> = {
      ...(values as Record<string, string | number | boolean>),
    };
    for (const name of preformatted) if (typeof given[name] === 'number') given[name] = number(given[name]);
    return String(format.format(given));
  };
}

function createTranslator(language: PageLanguage, timeZone: string): Translator {
  const catalogue = CATALOGUES[language];
  const locale = FORMAT_LOCALE[language];
  // Made on first use: the first Intl formatter of a process loads ICU's locale data (~20 ms), and a translator made at
  // start-up (markdown's MACHINE_WORDING) must not put that before the server listens.
  let plainNumber: Intl.NumberFormat | undefined;
  // English (english.ts) writes what it can without Intl, so a server of English pages in UTC never loads ICU's data.
  const english = language === 'en';
  // Every shipped locale writes Latin digits and groups from 1,000 only: smaller whole numbers need no formatter.
  const formatNumber = (value: number) => {
    if (Number.isInteger(value) && value > -1000 && value < 1000) return String(value);
    const written = english ? englishInteger(value) : undefined;
    if (written !== undefined) return written;
    plainNumber ??= new Intl.NumberFormat(locale);
    return plainNumber.format(value);
  };
  const dates = new Map<string, Intl.DateTimeFormat>();
  // Keyed by the options object: callers pass constants, so a page's thousands of numbers build no key.
  const numbers = new Map<Intl.NumberFormatOptions | undefined, Intl.NumberFormat>();
  const days = new Map<string, string>();
  const dateFormat = (style: keyof typeof DATE_STYLES, zone = timeZone) => {
    const id = `${style}\u0000${zone}`;
    let format = dates.get(id);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { ...DATE_STYLES[style], timeZone: zone });
      dates.set(id, format);
    }
    return format;
  };
  const formatDate = (ms: number, style: keyof typeof DATE_STYLES, zone = timeZone) =>
    (english && zone === 'UTC' ? englishUtcDate(ms, style) : undefined) ?? dateFormat(style, zone).format(ms);
  return {
    language,
    timeZone,
    t(key, values) {
      const id = `${language}\u0000${key}`;
      let format = compiled.get(id);
      if (!format) {
        format = formatterOf(catalogue[key] ?? en[key], language, formatNumber);
        compiled.set(id, format);
      }
      return format(values);
    },
    number(value, options) {
      if (options === undefined) return formatNumber(value);
      let format = numbers.get(options);
      if (!format) {
        format = new Intl.NumberFormat(locale, options);
        if (numbers.size < 64) numbers.set(options, format);
      }
      return format.format(value);
    },
    dateTime(ms, style = 'dateTime') {
      return formatDate(ms, style);
    },
    dateRange(startMs, endMs) {
      return endMs > startMs
        ? dateFormat('dateTime').formatRange(startMs, endMs)
        : dateFormat('dateTime').format(startMs);
    },
    calendarDay(date) {
      // The same 90 days stand under every component of a page.
      let text = days.get(date);
      if (text === undefined) {
        const [year, month, day] = date.split('-').map(Number);
        const ms = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1);
        text = Number.isFinite(ms) ? formatDate(ms, 'date', 'UTC') : date;
        if (days.size >= 512) days.clear();
        days.set(date, text);
      }
      return text;
    },
  };
}

export { PAGE_LANGUAGES };
