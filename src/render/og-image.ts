// The Open Graph image of a status page: a 1200×630 PNG for link previews (title, overall state, components, players, uptime).
import type { PageState, Snapshot, SnapshotComponent } from '../domain/snapshot.js';
import { STATE_COLOUR } from './html-layout.js';
import { type Translator, translator } from './i18n/index.js';
import { countOfText, overallLabel, stateWord, uptimeText } from './i18n/wording.js';
import { clip, engines, FONT_FAMILY, latinText, ogFonts } from './og-fonts.js';
import { plainText } from './page-wording.js';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
/** Components listed by name; the rest are counted in one line. */
export const OG_MAX_COMPONENTS = 7;

export interface OgImageRendering {
  contentType: 'image/png';
  body: Uint8Array;
}

/** An uploaded logo to draw (PNG or JPEG: what both satori and resvg read); an external logo URL is never fetched. */
export interface OgLogo {
  contentType: 'image/png' | 'image/jpeg';
  body: Uint8Array;
}

/**
 * The page as a PNG; satori lays it out to SVG (text as paths, in Inter), resvg rasterizes it off the event loop.
 * `i18n`: the reader's language (the page's own, else English, when left out); Inter's Latin, Latin Extended and
 * Cyrillic subsets draw every shipped language (Polish, Turkish and Russian letters included).
 */
export async function renderOgImage(
  snapshot: Snapshot,
  logo?: OgLogo,
  options: { i18n?: Translator } = {},
): Promise<OgImageRendering> {
  const i18n = options.i18n ?? translator(snapshot.page.language ?? undefined, snapshot.page.timeZone);
  const tree = card(i18n, snapshot, logo);
  const { satori, renderAsync } = await engines();
  const svg = await satori(tree as never, {
    width: OG_WIDTH,
    height: OG_HEIGHT,
    fonts: await ogFonts(latinOnly(tree)),
  });
  const image = await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  return { contentType: 'image/png', body: image.asPng() };
}

/**
 * Loads the Latin fonts and runs the layout engine once, so that the first og.png a reader asks for does not also
 * pay the process's one-off start-up (WebAssembly compilation, font parsing: about 200–300 ms). Optional.
 */
export async function prepareOgImage(): Promise<void> {
  const { satori } = await engines();
  await satori(el({ width: 10, height: 10 }, 'W') as never, { width: 10, height: 10, fonts: await ogFonts(true) });
}

/** The page's 30-day uptime: the mean over components that have checks in the window; null when none has. */
export function pageUptime30d(components: SnapshotComponent[]): number | null {
  const shares = components.map((c) => c.uptime['30d']).filter((share): share is number => share !== null);
  return shares.length === 0 ? null : shares.reduce((sum, share) => sum + share, 0) / shares.length;
}

/** Whether every character of the image is covered by Inter's Latin subset (Basic Latin, Latin-1, general punctuation). */
function latinOnly(node: Node | string): boolean {
  if (typeof node === 'string') return latinText(node);
  const children = node.props.children;
  if (children === undefined) return true;
  return Array.isArray(children) ? children.every(latinOnly) : latinOnly(children);
}

/** A satori element: the React element shape, without React. */
interface Node {
  type: string;
  props: { style?: Record<string, string | number>; children?: (Node | string)[] | Node | string; src?: string };
}

/** The logo, at most 88 px high and 480 px wide, keeping its proportions. */
function logoNode(logo: OgLogo): Node {
  const src = `data:${logo.contentType};base64,${Buffer.from(logo.body).toString('base64')}`;
  const size = imageSize(logo);
  const scale = size ? Math.min(88 / size.height, 480 / size.width, 1) : 1;
  const [width, height] = size ? [Math.round(size.width * scale), Math.round(size.height * scale)] : [88, 88];
  return { type: 'img', props: { src, style: { width, height, marginBottom: 20, objectFit: 'contain' } } };
}

/** Width and height from a PNG's IHDR or a JPEG's first SOF segment; undefined when they cannot be read. */
function imageSize(logo: OgLogo): { width: number; height: number } | undefined {
  const b = Buffer.from(logo.body);
  if (logo.contentType === 'image/png')
    return b.length >= 24 ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : undefined;
  let at = 2;
  while (at + 9 < b.length && b[at] === 0xff) {
    const marker = b[at + 1] as number;
    const length = b.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

function el(style: Record<string, string | number>, children: (Node | string)[] | Node | string = []): Node {
  return { type: 'div', props: { style: { display: 'flex', ...style }, children } };
}

const INK = '#1f2328';
const MUTED = '#59636e';
const DIVIDER = '#d1d9e0';

/*
 * The page's branding shows too: its description is the subtitle, its uploaded logo sits above the title, its accent
 * runs down the left edge and colours its address (the band across the top stays the state's colour), and "Powered by
 * Warden" goes when the page hides it.
 */
function card(i18n: Translator, snapshot: Snapshot, logo: OgLogo | undefined): Node {
  const { state } = snapshot.overall;
  const label = overallLabel(i18n, plainText(snapshot.overall.label));
  const title = clip(plainText(snapshot.page.title), 70) || snapshot.page.slug;
  const { accentColor, poweredBy } = snapshot.page.branding;
  const accent = accentColor !== null && /^#[0-9a-f]{6}$/i.test(accentColor) ? accentColor : null;
  return el(
    {
      width: OG_WIDTH,
      height: OG_HEIGHT,
      flexDirection: 'column',
      background: '#ffffff',
      fontFamily: FONT_FAMILY,
      color: INK,
    },
    [
      el({ height: 14, background: STATE_COLOUR[state] }),
      el(
        {
          flex: 1,
          padding: `48px 64px 40px ${accent ? 52 : 64}px`,
          flexDirection: 'row',
          gap: 56,
          ...(accent ? { borderLeft: `12px solid ${accent}` } : {}),
        },
        [
          el({ flex: 1, flexDirection: 'column', minWidth: 0 }, [
            ...(logo ? [logoNode(logo)] : []),
            el({ fontSize: 58, fontWeight: 700, lineHeight: 1.12, letterSpacing: -1, lineClamp: logo ? 2 : 3 }, title),
            el(
              { fontSize: 28, color: MUTED, marginTop: 10, lineClamp: 2 },
              clip(plainText(snapshot.page.description ?? ''), 110) || i18n.t('og.status'),
            ),
            el(
              {
                marginTop: 30,
                alignSelf: 'flex-start',
                alignItems: 'center',
                gap: 16,
                padding: '14px 28px 14px 22px',
                borderRadius: 18,
                background: STATE_COLOUR[state],
                color: '#ffffff',
                fontSize: 32,
                fontWeight: 700,
                maxWidth: 560,
              },
              [
                el({ width: 22, height: 22, borderRadius: 11, background: '#ffffff', flexShrink: 0 }),
                clip(plainText(label), 44),
              ],
            ),
            el({ flex: 1 }),
            stats(i18n, snapshot),
          ]),
          components(i18n, snapshot.components),
        ],
      ),
      el(
        {
          height: 64,
          padding: '0 64px',
          alignItems: 'center',
          justifyContent: 'space-between',
          borderTop: `2px solid ${DIVIDER}`,
          fontSize: 24,
          color: MUTED,
        },
        [
          el(accent ? { color: accent, fontWeight: 700 } : {}, clip(pageHost(snapshot), 60)),
          ...(poweredBy ? [el({}, i18n.t('common.poweredBy'))] : []),
        ],
      ),
    ],
  );
}

function stats(i18n: Translator, snapshot: Snapshot): Node {
  const items: Node[] = [];
  const { players, maxPlayers } = snapshot.totals;
  if (players !== null) items.push(stat(i18n.t('page.playersOnline'), countOfText(i18n, players, maxPlayers)));
  items.push(stat(i18n.t('og.uptime30d'), uptimeText(i18n, pageUptime30d(snapshot.components))));
  return el({ gap: 56 }, items);
}

function stat(label: string, value: string): Node {
  return el({ flexDirection: 'column' }, [
    el({ fontSize: 24, color: MUTED }, label),
    el({ fontSize: 46, fontWeight: 700, marginTop: 2 }, value),
  ]);
}

/** Trouble first (down, degraded, maintenance, no data), then the rest, each in page order: a preview shows what is wrong. */
const SEVERITY: Record<PageState, number> = { down: 0, degraded: 1, maintenance: 2, unknown: 3, operational: 4 };

function components(i18n: Translator, all: SnapshotComponent[]): Node {
  if (all.length === 0) return el({ width: 0 });
  const list = all
    .map((component, index) => ({ component, index }))
    .sort((a, b) => SEVERITY[a.component.state] - SEVERITY[b.component.state] || a.index - b.index)
    .map(({ component }) => component);
  const shown = list.length > OG_MAX_COMPONENTS ? list.slice(0, OG_MAX_COMPONENTS - 1) : list;
  const rows: Node[] = shown.map((component) =>
    el({ alignItems: 'center', gap: 14, height: 50, borderBottom: `1px solid ${DIVIDER}`, fontSize: 25 }, [
      el({ width: 16, height: 16, borderRadius: 8, background: STATE_COLOUR[component.state], flexShrink: 0 }),
      nameCell(component),
      el({ color: STATE_COLOUR[component.state], fontWeight: 700, flexShrink: 0 }, stateWord(i18n, component.state)),
    ]),
  );
  const rest = list.length - shown.length;
  if (rest > 0) {
    const notOk = list.slice(shown.length).filter((c) => c.state !== 'operational').length;
    const more =
      notOk > 0 ? i18n.t('og.moreNotOperational', { count: rest, notOk }) : i18n.t('og.more', { count: rest });
    rows.push(el({ height: 50, alignItems: 'center', fontSize: 24, color: MUTED }, more));
  }
  return el({ width: 440, flexDirection: 'column' }, [
    el(
      { fontSize: 22, fontWeight: 700, color: MUTED, letterSpacing: 2, marginBottom: 6 },
      i18n.t('components.title').toLocaleUpperCase(i18n.language),
    ),
    ...rows,
  ]);
}

/** The name, and under it the address players join (a game server's), smaller. */
function nameCell(component: SnapshotComponent): Node {
  const line = { overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' } as const;
  const name = clip(plainText(component.name), 40) || '—';
  if (!component.join) return el({ flex: 1, minWidth: 0, ...line }, name);
  return el({ flex: 1, minWidth: 0, flexDirection: 'column', lineHeight: 1.15 }, [
    el(line, name),
    el({ ...line, fontSize: 17, color: MUTED }, clip(component.join.label, 48)),
  ]);
}

function pageHost(snapshot: Snapshot): string {
  if (snapshot.page.customDomain) return snapshot.page.customDomain;
  try {
    const url = new URL(snapshot.page.url);
    return url.host + url.pathname.replace(/\/$/, '');
  } catch {
    return snapshot.page.url;
  }
}
