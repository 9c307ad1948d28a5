// How the renderer contract reads each language a form speaks: a real parser where one is installed, and what escaping means in it.
import { Resvg } from '@resvg/resvg-js';
import Parser from 'rss-parser';
import { expect } from 'vitest';
import type { Snapshot } from '../../src/domain/snapshot.js';
import type { Rendered } from '../../src/render/forms.js';
import { distinctColours, PNG_SIGNATURE, readPng } from '../pixels.js';

type Body = Rendered['body'];

export interface Language {
  /** The content type a form in this language answers. */
  contentType: RegExp;
  /** What escaping promises in this language, for the test's name. */
  escaping: string;
  /** Fails unless the body is well formed in this language; `snapshot` is what was rendered. */
  read(body: Body, snapshot: Snapshot): void | Promise<void>;
  /**
   * Fails if user text changed the document: `hostile` rendered the hostile snapshot, `tame` the same snapshot through
   * tame(); `markup` is what the hostile text holds (markupIn), none of which may reach the document as markup.
   */
  sameStructure(hostile: Body, tame: Body, markup: string[]): void | Promise<void>;
}

/** Keys whose strings are text a person typed or a game server sent: names, titles, messages, ids. */
const USER_TEXT_KEYS = new Set([
  'id',
  'title',
  'description',
  'name',
  'group',
  'message',
  'motd',
  'version',
  'playerNames',
]);
/** ASCII punctuation: every character that means something in HTML, XML or Markdown is one of these. */
const PUNCTUATION = /[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g;
/** Markup that hostile text may hold: an element, comment or CDATA opening or closing, an event handler, a CDATA end. */
const MARKUP = /<\/?[a-z!][a-z0-9![-]*|\bon[a-z]+=|\]\]>/gi;

/**
 * The snapshot with every punctuation character of its user text made an "x": the same lengths, lines, states and
 * structure, with nothing left to escape. What the hostile snapshot renders to must have the tamed one's structure.
 */
export function tame(snapshot: Snapshot): Snapshot {
  return mapUserText(snapshot, (text) => text.replace(PUNCTUATION, 'x')) as Snapshot;
}

/** The markup in a snapshot's user text, lower-cased, each once: what the renderers must not let through. */
export function markupIn(snapshot: Snapshot): string[] {
  const found = new Set<string>();
  mapUserText(snapshot, (text) => {
    for (const [markup] of text.matchAll(MARKUP)) found.add(markup.toLowerCase());
    return text;
  });
  return [...found].sort();
}

export const LANGUAGES = {
  json: {
    contentType: /^application\/json; charset=utf-8$/,
    escaping: 'JSON.stringify escapes by construction: it reads back as the snapshot, with the keys of the tamed one',
    read: (body, snapshot) => expect(JSON.parse(text(body))).toStrictEqual(snapshot),
    sameStructure: (hostile, tame) =>
      expect(keyPaths(JSON.parse(text(hostile)))).toEqual(keyPaths(JSON.parse(text(tame)))),
  },
  statuspage: {
    contentType: /^application\/json; charset=utf-8$/,
    escaping:
      "JSON.stringify escapes by construction: it parses, with Statuspage's page object, and has the keys of the tamed rendering",
    read(body, snapshot) {
      const json = JSON.parse(text(body));
      expect(Object.keys(json.page)).toEqual(['id', 'name', 'url', 'time_zone', 'updated_at']);
      expect(json.page.id).toBe(snapshot.page.id);
    },
    sameStructure: (hostile, tame) =>
      expect(keyPaths(JSON.parse(text(hostile)))).toEqual(keyPaths(JSON.parse(text(tame)))),
  },
  markdown: {
    contentType: /^text\/markdown; charset=utf-8$/,
    escaping: 'user text opens no heading, list, quote, rule, fence, table cell, link, emphasis, code, entity or HTML',
    read(body) {
      expect(text(body)).toMatch(/^# \S/);
      expect(text(body).endsWith('\n')).toBe(true);
      expect(text(body), 'a control character').not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    },
    sameStructure(hostile, tame) {
      const [a, b] = [literal(text(hostile)), literal(text(tame))];
      expect(a.split('\n').map(markdownBlock)).toEqual(b.split('\n').map(markdownBlock));
      expect(census(a, [...'`*_[]<>#|~'])).toEqual(census(b, [...'`*_[]<>#|~']));
      expect(a, 'an entity').not.toMatch(/&#?\w+;/);
    },
  },
  html: {
    contentType: /^text\/html; charset=utf-8$/,
    escaping:
      'user text adds no element, attribute or comment: the tamed rendering has as many <, > and " and as much of its markup',
    read(body) {
      expect(text(body)).toMatch(/^<!doctype html>\n<html lang="[a-z]{2}(-[A-Z]{2})?"/);
      expect(text(body).endsWith('</html>\n')).toBe(true);
      for (const tag of ['<head>', '</head>', '<body>', '</body>']) expect(census(text(body), [tag])[tag], tag).toBe(1);
    },
    sameStructure: (hostile, tame, markup) =>
      expect(markupCensus(text(hostile), markup)).toEqual(markupCensus(text(tame), markup)),
  },
  rss: {
    contentType: /^application\/rss\+xml; charset=utf-8$/,
    escaping: 'well-formed XML, and the HTML of each item, once read, holds no markup of the user text either',
    async read(body) {
      expect(text(body).startsWith(`${XML_DECLARATION}<rss version="2.0"`)).toBe(true);
      expect(text(body).endsWith('</rss>\n')).toBe(true);
      // The body is read inside an SVG's <metadata>, which resvg parses and never draws.
      expectWellFormedXml(
        `<svg xmlns="http://www.w3.org/2000/svg"><metadata>${text(body).slice(XML_DECLARATION.length)}</metadata></svg>`,
      );
      const feed = await rssParser.parseString(text(body));
      expect(feed.title).toBeTruthy();
      for (const item of feed.items)
        expect([item.title, item.guid, item.pubDate].every(Boolean), JSON.stringify(item)).toBe(true);
    },
    async sameStructure(hostile, tame, markup) {
      expect(markupCensus(text(hostile), markup)).toEqual(markupCensus(text(tame), markup));
      const [a, b] = await Promise.all([rssParser.parseString(text(hostile)), rssParser.parseString(text(tame))]);
      const items = (feed: typeof a) => feed.items.map((item) => markupCensus(item.content ?? '', markup));
      expect(items(a)).toEqual(items(b));
    },
  },
  svg: {
    contentType: /^image\/svg\+xml; charset=utf-8$/,
    escaping: 'well-formed XML with no active content, and as many <, > and " as the tamed rendering',
    read(body) {
      expect(text(body).startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expectWellFormedXml(text(body));
      expect(text(body), 'active content in an image').not.toMatch(
        /<script|<foreignobject|\son[a-z]+\s*=|javascript:/i,
      );
    },
    sameStructure: (hostile, tame, markup) =>
      expect(markupCensus(text(hostile), markup)).toEqual(markupCensus(text(tame), markup)),
  },
  png: {
    contentType: /^image\/png$/,
    escaping: 'text is drawn, never read as markup: the hostile image decodes like the tamed one',
    read(body) {
      expect(body).toBeInstanceOf(Uint8Array);
      expect([...(body as Uint8Array).subarray(0, 8)]).toEqual([...PNG_SIGNATURE]);
      expect(
        distinctColours(readPng(body as Uint8Array)),
        'distinct colours: a blank image has one or two',
      ).toBeGreaterThan(20);
    },
    sameStructure(hostile, tame) {
      const [a, b] = [readPng(hostile as Uint8Array), readPng(tame as Uint8Array)];
      expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
    },
  },
} satisfies Record<string, Language>;

export type LanguageName = keyof typeof LANGUAGES;

/** The first place two renderings differ, to say where bytes that should be the same are not. */
export function difference(a: Body, b: Body): string | null {
  if (typeof a !== typeof b) return `one is ${typeof a === 'string' ? 'text' : 'bytes'}, the other not`;
  const [x, y] =
    typeof a === 'string' ? [a, b as string] : [Buffer.from(a).toString('latin1'), Buffer.from(b).toString('latin1')];
  if (x === y) return null;
  let at = 0;
  while (x[at] === y[at]) at++;
  return `they differ at ${at} of ${x.length} and ${y.length}: …${JSON.stringify(x.slice(at, at + 40))} against …${JSON.stringify(y.slice(at, at + 40))}`;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const rssParser = new Parser();

/**
 * Well-formed XML 1.0 with namespaces, read by resvg's parser (roxmltree): strict, unlike rss-parser's (sax through
 * xml2js), which accepts unclosed elements, unknown entities, control characters and "]]>" in text. A lone surrogate
 * is checked apart, as it reaches the parser already made U+FFFD.
 */
function expectWellFormedXml(document: string): void {
  expect(document, 'a lone surrogate, which XML cannot carry').not.toMatch(LONE_SURROGATE);
  expect(() => new Resvg(document, { font: { loadSystemFonts: false } })).not.toThrow();
}

function text(body: Body): string {
  if (typeof body !== 'string') throw new Error('expected text, got bytes');
  return body;
}

/** How often each needle stands in the text, case aside. */
function census(haystack: string, needles: string[]): Record<string, number> {
  const lower = haystack.toLowerCase();
  return Object.fromEntries(needles.map((needle) => [needle, lower.split(needle.toLowerCase()).length - 1]));
}

/**
 * The characters that make markup, the user text's elements and comments, and its event handlers where they would
 * act (attributes of a tag, quoted values set aside): equal counts mean the user text made no markup.
 */
function markupCensus(document: string, markup: string[]): Record<string, number> {
  const handlers = markup.filter((fragment) => /^on[a-z]+=$/.test(fragment));
  const attributes = (document.match(/<[^<>]*>/g) ?? []).flatMap((tag) =>
    [...tag.replace(/"[^"]*"|'[^']*'/g, '""').matchAll(/\s([\w:-]+)\s*=/g)].map(
      ([, name]) => `${name!.toLowerCase()}=`,
    ),
  );
  return {
    ...census(document, ['<', '>', '"', ...markup.filter((fragment) => !handlers.includes(fragment))]),
    ...Object.fromEntries(
      handlers.map((handler) => [`${handler} (attribute)`, attributes.filter((name) => name === handler).length]),
    ),
  };
}

/**
 * Markdown with every backslash-escaped character made U+001A (substitute: not a word, space or syntax character, so
 * it can neither open a block nor complete an entity): what is left is the renderer's own syntax.
 */
function literal(markdown: string): string {
  return markdown.replace(/\\[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g, '\u001a');
}

/** What kind of Markdown block a line opens (CommonMark and GitHub tables), after literal(). */
function markdownBlock(line: string): string {
  const heading = /^ {0,3}(#{1,6})(?:[ \t]|$)/.exec(line);
  if (heading) return `heading ${heading[1]!.length}`;
  if (/^ {0,3}>/.test(line)) return 'quote';
  if (/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) return 'rule';
  if (/^ {0,3}=+[ \t]*$/.test(line)) return 'heading underline';
  if (/^ {0,3}(```|~~~)/.test(line)) return 'fence';
  if (/^ {0,3}</.test(line)) return 'html';
  const item = /^( *)([-+*]|\d{1,9}[.)])(?:[ \t]|$)/.exec(line);
  if (item) return `item at ${item[1]!.length}`;
  if (/^ {0,3}\|/.test(line)) return `row of ${line.split('|').length - 1} pipes`;
  return line.trim() === '' ? 'blank' : 'text';
}

/** Every path to a value in parsed JSON, e.g. `components.0.live.motd`. */
function keyPaths(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [path];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, path ? `${path}.${key}` : key));
}

/** A copy of a value with `change` applied to the strings under USER_TEXT_KEYS (and in their lists: `playerNames`). */
function mapUserText(value: unknown, change: (text: string) => string, key = ''): unknown {
  if (typeof value === 'string') return USER_TEXT_KEYS.has(key) ? change(value) : value;
  if (Array.isArray(value)) return value.map((item) => mapUserText(item, change, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, mapUserText(inner, change, name)]));
  return value;
}
