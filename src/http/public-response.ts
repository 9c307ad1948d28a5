// Public, cacheable bytes outside a page (llms files, reference docs): ETag and 304, Cache-Control, Brotli and gzip, like the page forms.
import { etagMatches, etagOf } from '../domain/etag.js';
import { compressedVariants, type EncodedVariants, isCompressible } from '../services/pages/compressed-variants.js';
import { pickContentCoding } from './accept-encoding.js';
import { PUBLIC_CACHE_CONTROL } from './routes/status/serve-form.js';

export interface PublicBytes {
  contentType: string;
  body: Uint8Array;
  etag: string;
  /** The same bytes in Brotli and gzip, each with its own ETag (none under 1 KB), compressed on first use. */
  encoded: EncodedVariants;
}

/** Rendered once: the bytes every response writes, their ETag and their compressed variants (the page forms' scheme). */
export function publicBytes(contentType: string, text: string): PublicBytes {
  const body = Buffer.from(text);
  const etag = etagOf(body);
  return { contentType, body, etag, encoded: compressedVariants(body, contentType, etag) };
}

export function publicResponse(bytes: PublicBytes, ifNoneMatch: string | undefined, acceptEncoding?: string): Response {
  const picked = pickContentCoding(acceptEncoding, {
    br: bytes.encoded.compressible,
    gzip: bytes.encoded.compressible,
  });
  const variant = picked === 'identity' ? undefined : bytes.encoded.get(picked);
  const etag = variant?.etag ?? bytes.etag;
  const headers: Record<string, string> = {
    etag,
    'cache-control': PUBLIC_CACHE_CONTROL,
    'x-content-type-options': 'nosniff',
    ...(isCompressible(bytes.contentType) ? { vary: 'Accept-Encoding' } : {}),
    ...(variant ? { 'content-encoding': picked } : {}),
  };
  if (etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  return new Response((variant?.body ?? bytes.body) as BodyInit, {
    status: 200,
    headers: { ...headers, 'content-type': bytes.contentType },
  });
}
