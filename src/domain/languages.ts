// The languages a status page speaks: one message catalogue each (src/render/i18n/), chosen per page or per reader.
import { z } from 'zod';

/** BCP 47 tags of the shipped catalogues; English is the fallback of every lookup. */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'pl', 'ru', 'tr'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: PageLanguage = 'en';

/** Each language's name in itself, for the language picker. */
export const LANGUAGE_NAMES: Record<PageLanguage, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  pl: 'Polski',
  ru: 'Русский',
  tr: 'Türkçe',
};

export const pageLanguageSchema = z
  .enum(PAGE_LANGUAGES, { error: `expected one of ${PAGE_LANGUAGES.join(', ')}` })
  .describe("The page's language; left out or null, each reader gets theirs (Accept-Language), English by default.");

/** The shipped language a tag names ("de-AT" → de, "pt" → pt-BR, "PT-br" → pt-BR), or undefined. */
export function matchLanguage(tag: string): PageLanguage | undefined {
  const lower = tag.trim().toLowerCase();
  if (lower === '') return undefined;
  const exact = PAGE_LANGUAGES.find((language) => language.toLowerCase() === lower);
  if (exact) return exact;
  const primary = lower.split('-')[0];
  return PAGE_LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === primary);
}

/** Caps what is read of an Accept-Language header: a hostile one is neither parsed at length nor looped over. */
const ACCEPT_LANGUAGE_MAX_CHARS = 512;
const ACCEPT_LANGUAGE_MAX_ENTRIES = 16;

/** The reader's preferred shipped language from an Accept-Language header (q-values honoured), or undefined. */
export function languageFromAcceptLanguage(header: string | undefined): PageLanguage | undefined {
  if (!header) return undefined;
  const entries = header
    .slice(0, ACCEPT_LANGUAGE_MAX_CHARS)
    .split(',')
    .slice(0, ACCEPT_LANGUAGE_MAX_ENTRIES)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0 && entry.tag !== '*')
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const entry of entries) {
    const language = matchLanguage(entry.tag);
    if (language) return language;
  }
  return undefined;
}

/** The canonical IANA names, listed once (listing them does not load ICU's date data). */
let canonicalZones: Set<string> | undefined;

/**
 * Whether Intl knows this IANA time zone name. UTC (the default) and the canonical names are known without a
 * DateTimeFormat, whose first construction loads ICU's data (~6 MiB, held for the life of the process); other
 * spellings (another case, such as europe/berlin, or a link ICU does not list) are asked of one.
 */
export function isTimeZone(name: string): boolean {
  if (name === 'UTC') return true;
  canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonicalZones.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .refine(isTimeZone, { error: 'expected an IANA time zone such as Europe/Berlin or UTC' })
  .describe("IANA time zone the page's dates and times are shown in; UTC by default.");
