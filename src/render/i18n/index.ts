// Localised wording for every public form of a page: one ICU message catalogue per language (messages/*.ts), compiled
// once per language and message, and dates in the page's time zone in the reader's locale.
import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LANGUAGE, PAGE_LANGUAGES, type PageLanguage } from '../../domain/languages.js';
import { type Catalogue, en, type MessageKey } from './messages/en.js';

export type { MessageKey } from './messages/en.js';

/** Every shipped catalogue; a language missing here fails to compile. */
export const CATALOGUES: Record<PageLanguage, Catalogue> = {
  en,
  // The other languages are filled in by their own files as they land; until then they read English.
  de: en,
  fr: en,
  es: en,
  'pt-BR': en,
  pl: en,
  ru: en,
  tr: en,
};

export type MessageValues = Record<string, string | number | boolean | null | undefined>;

export interface Translator {
  readonly language: PageLanguage;
  /** The message in this language, with its arguments; plain text (callers escape it for their format). */
  t(key: MessageKey, values?: MessageValues): string;
  /** A number in the reader's locale ("1,234" / "1.234"). */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** A point in time in the page's time zone, in the reader's locale. */
  dateTime(ms: number, style?: 'date' | 'time' | 'dateTime' | 'dayMonth'): string;
  readonly timeZone: string;
}

const compiled = new Map<string, IntlMessageFormat>();
const translators = new Map<string, Translator>();

/** The translator of a language and time zone; the same object for the same pair (memoized, the set is small). */
export function translator(language: PageLanguage = DEFAULT_LANGUAGE, timeZone = 'UTC'): Translator {
  const id = `${language}\u0000${timeZone}`;
  let known = translators.get(id);
  if (!known) {
    known = createTranslator(language, timeZone);
    translators.set(id, known);
  }
  return known;
}

const DATE_STYLES: Record<'date' | 'time' | 'dateTime' | 'dayMonth', Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  dayMonth: { day: 'numeric', month: 'short' },
};

function createTranslator(language: PageLanguage, timeZone: string): Translator {
  const catalogue = CATALOGUES[language];
  const dates = new Map<string, Intl.DateTimeFormat>();
  const numbers = new Map<string, Intl.NumberFormat>();
  return {
    language,
    timeZone,
    t(key, values) {
      const source = catalogue[key] ?? en[key];
      const id = `${language}\u0000${key}`;
      let format = compiled.get(id);
      if (!format) {
        format = new IntlMessageFormat(source, language);
        compiled.set(id, format);
      }
      return String(format.format(values as Record<string, string | number | boolean>));
    },
    number(value, options) {
      const id = options ? JSON.stringify(options) : '';
      let format = numbers.get(id);
      if (!format) {
        format = new Intl.NumberFormat(language, options);
        numbers.set(id, format);
      }
      return format.format(value);
    },
    dateTime(ms, style = 'dateTime') {
      let format = dates.get(style);
      if (!format) {
        format = new Intl.DateTimeFormat(language, { ...DATE_STYLES[style], timeZone });
        dates.set(style, format);
      }
      return format.format(ms);
    },
  };
}

export { PAGE_LANGUAGES };
