// Which content coding a client gets a precomputed body in: Brotli, gzip or none, chosen by its Accept-Encoding (RFC 9110 §12.5.3).

/** The codings the page forms are kept in besides their plain bytes (node:zlib; Node 20 has no zstd). */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * The coding to answer in, given what the server holds (`available`: the compressed variants of this body).
 * The highest q-value wins; on a tie Brotli (smaller), then gzip, then the plain bytes. `*` stands for any coding
 * not named; `q=0` refuses one. When nothing held is acceptable (even `identity;q=0`), the plain bytes are sent:
 * RFC 9110 allows that, and an answer beats a 406 for a status page.
 */
export function pickContentCoding(
  header: string | undefined,
  available: { br: boolean; gzip: boolean },
): ContentCoding {
  if (!header || (!available.br && !available.gzip)) return 'identity';
  const q = acceptedCodings(header);
  const br = available.br ? q.br : -1;
  const gzip = available.gzip ? q.gzip : -1;
  if (br > 0 && br >= gzip && br >= q.identity) return 'br';
  if (gzip > 0 && gzip >= q.identity) return 'gzip';
  return 'identity';
}

/** The q-value a header gives each coding we hold (0: refused). */
export interface AcceptedCodings {
  br: number;
  gzip: number;
  identity: number;
}

/*
 * Clients send few distinct Accept-Encoding values (a browser's is the same on every request), so each value's
 * parse is kept: the hot path pays a Map lookup. Bounded; a flood of made-up values only empties it.
 */
const MEMO_MAX = 256;
const MAX_HEADER_CHARS = 512;
const memo = new Map<string, AcceptedCodings>();
/** Below the smallest weight a client can write (0.001): acceptable, but any coding the client names is preferred. */
const UNNAMED_IDENTITY = 0.0001;

export function acceptedCodings(header: string): AcceptedCodings {
  const known = memo.get(header);
  if (known) return known;
  const parsed = parse(header.length > MAX_HEADER_CHARS ? header.slice(0, MAX_HEADER_CHARS) : header);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(header, parsed);
  return parsed;
}

function parse(header: string): AcceptedCodings {
  let br: number | undefined;
  let gzip: number | undefined;
  let identity: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = (rawName ?? '').trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() !== 'q') continue;
      const number = Number(value?.trim());
      // A malformed weight counts as a refusal, not as "1": the client said something we cannot read.
      q = /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(value ?? '') && Number.isFinite(number) ? number : 0;
    }
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gzip = q;
    else if (name === 'identity') identity = q;
    else if (name === '*') any = q;
  }
  return {
    br: br ?? any ?? 0,
    gzip: gzip ?? any ?? 0,
    // Identity is acceptable unless named with q=0, or `*;q=0` with identity not named; unnamed, it comes last.
    identity: identity ?? (any === 0 ? 0 : UNNAMED_IDENTITY),
  };
}
