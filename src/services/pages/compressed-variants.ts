// A rendered form's Brotli and gzip variants, made once per snapshot version beside its plain bytes (node:zlib; Node 20 has no zstd).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One compressed variant of a body: its bytes and its own ETag (the plain bytes' with a suffix inside the quotes). */
export interface EncodedBody {
  body: Buffer;
  etag: string;
}

/** A body's compressed variants, each made on the first request that asks for it, then kept with the body. */
export interface EncodedVariants {
  /** Whether this body has variants at all (text of COMPRESS_MIN_BYTES or more): its answers vary by Accept-Encoding. */
  readonly compressible: boolean;
  /** The variant in this coding, compressed now if not yet; undefined when the body has none. */
  get(coding: 'br' | 'gzip'): EncodedBody | undefined;
}

/**
 * Bodies below this are sent as they are: a kilobyte fits in one packet either way, and the framing and the
 * compressor's header eat most of the saving (a 900-byte badge shrinks to about 450 bytes, one TCP segment both).
 */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Brotli quality 5: measured on the forms of a large page (350–550 KB of JSON and HTML), q5 comes within 3 % of q7's
 * size at a third of its time (2–5 ms), q4 is 15 % larger, q9 and above cost 10–100× more for 1–10 %. A form is
 * compressed at most once per snapshot version (about once a second under load), by the first request that wants it.
 */
export const BROTLI_QUALITY = 5;
/** gzip's default level: level 9 saved 5–8 % on these forms for up to twice the time, level 4 was 35 % larger. */
export const GZIP_LEVEL = 6;

/** Whether a content type's answers vary by Accept-Encoding (text, JSON, XML, SVG); images are already compressed. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/([\w.-]+\+)?(json|xml)\b|image\/svg\+xml\b)/i.test(contentType);
}

/**
 * The variants of this body: none for an image or a body under COMPRESS_MIN_BYTES. Each coding is compressed on its
 * first use (synchronously, once per snapshot version): a version nobody reads in gzip never pays for gzip.
 * `made`: told each variant's size when it is made (the page cache counts it against its byte budget).
 */
export function compressedVariants(
  body: Uint8Array,
  contentType: string,
  etag: string,
  made?: (bytes: number) => void,
): EncodedVariants {
  if (body.byteLength < COMPRESS_MIN_BYTES || !isCompressible(contentType)) return NONE;
  let br: EncodedBody | undefined;
  let gzip: EncodedBody | undefined;
  const tagged = (suffix: string) => `${etag.slice(0, -1)}-${suffix}"`;
  return {
    compressible: true,
    get(coding) {
      if (coding === 'br') {
        if (!br) {
          br = { body: brotli(body), etag: tagged('br') };
          made?.(br.body.byteLength);
        }
        return br;
      }
      if (!gzip) {
        gzip = { body: gzipSync(body, { level: GZIP_LEVEL }), etag: tagged('gz') };
        made?.(gzip.body.byteLength);
      }
      return gzip;
    },
  };
}

const NONE: EncodedVariants = { compressible: false, get: () => undefined };

function brotli(body: Uint8Array): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  });
}
