// Which language a reader gets a page's words in: their pick (?lang), else the page's setting, else their browser's
// (Accept-Language, only for a page without a setting), else English. Resolved from memory on every public read.
import {
  DEFAULT_LANGUAGE,
  languageFromAcceptLanguage,
  matchLanguage,
  type PageLanguage,
} from '../../../domain/languages.js';
import type { Page } from '../../../domain/page.js';

export interface ReaderLanguage {
  language: PageLanguage;
  /** The answer depends on Accept-Language (the page has no language and the reader picked none): `Vary` says so. */
  fromHeader: boolean;
  /** The reader picked it (?lang): links and forms of the answer keep the pick. */
  picked?: PageLanguage;
}

/**
 * `picked`: the reader's ?lang, already matched to a shipped language (forms.ts languageOption), or a raw tag.
 * Accept-Language is read only when it can matter: a page with a language, or a pick, never parses the header.
 */
export function readerLanguage(
  page: Pick<Page, 'language'> | undefined,
  picked: string | undefined,
  acceptLanguage: string | undefined,
): ReaderLanguage {
  const pick = picked ? matchLanguage(picked.slice(0, 35)) : undefined;
  if (pick) return { language: pick, fromHeader: false, picked: pick };
  if (page?.language) return { language: page.language, fromHeader: false };
  return { language: browserLanguage(acceptLanguage), fromHeader: true };
}

/** The headers of an answer in this language: Content-Language, and Vary when it came from Accept-Language. */
export function languageHeaders(reader: ReaderLanguage): Record<string, string> {
  return { 'content-language': reader.language, ...(reader.fromHeader ? { vary: 'Accept-Language' } : {}) };
}

/** The ?lang of a raw query string ('' when none), without parsing it when it cannot hold one. */
export function pickedLanguage(query: string): string | undefined {
  if (!query.includes('lang=')) return undefined;
  return new URLSearchParams(query).get('lang') ?? undefined;
}

/*
 * Browsers send few distinct Accept-Language values (each reader's is the same on every request), so each value's
 * answer is kept: the hot path pays a Map lookup, not a parse. The map is bounded; a flood of made-up values only
 * empties it.
 */
const HEADER_MEMO_MAX = 1024;
const headerMemo = new Map<string, PageLanguage>();

function browserLanguage(header: string | undefined): PageLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  let language = headerMemo.get(header);
  if (language === undefined) {
    language = languageFromAcceptLanguage(header) ?? DEFAULT_LANGUAGE;
    if (headerMemo.size >= HEADER_MEMO_MAX) headerMemo.clear();
    // A key is kept at its first 512 characters' worth: the parse reads no more (languages.ts caps it).
    if (header.length <= 512) headerMemo.set(header, language);
  }
  return language;
}
