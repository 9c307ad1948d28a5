// Public, cacheable bytes outside a page (llms files, reference docs): ETag and 304, Cache-Control, like the page forms.
import { etagMatches, etagOf } from '../domain/etag.js';
import { PUBLIC_CACHE_CONTROL } from './routes/status/serve-form.js';

export interface PublicBytes {
  contentType: string;
  body: Uint8Array;
  etag: string;
}

/** Rendered once: the bytes every response writes and their ETag (the page forms' scheme). */
export function publicBytes(contentType: string, text: string): PublicBytes {
  const body = Buffer.from(text);
  return { contentType, body, etag: etagOf(body) };
}

export function publicResponse(bytes: PublicBytes, ifNoneMatch: string | undefined): Response {
  const headers: Record<string, string> = { etag: bytes.etag, 'cache-control': PUBLIC_CACHE_CONTROL, 'x-content-type-options': 'nosniff' };
  if (etagMatches(ifNoneMatch, bytes.etag)) return new Response(null, { status: 304, headers });
  return new Response(bytes.body as BodyInit, { status: 200, headers: { ...headers, 'content-type': bytes.contentType } });
}
