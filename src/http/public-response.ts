// Public, cacheable bytes outside a page (llms files, reference docs): ETag and 304, Cache-Control, CORS, like the page forms.
import { createHash } from 'node:crypto';
import { CORS_HEADERS, PUBLIC_CACHE_CONTROL } from './routes/status/serve-form.js';

export interface PublicBytes {
  contentType: string;
  body: Uint8Array;
  etag: string;
}

/** Rendered once: the bytes every response writes and their ETag (the page forms' scheme). */
export function publicBytes(contentType: string, text: string): PublicBytes {
  const body = Buffer.from(text);
  return { contentType, body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
}

export function publicResponse(bytes: PublicBytes, ifNoneMatch: string | undefined): Response {
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    etag: bytes.etag,
    'cache-control': PUBLIC_CACHE_CONTROL,
    'x-content-type-options': 'nosniff',
  };
  if (matchesEtag(ifNoneMatch, bytes.etag)) return new Response(null, { status: 304, headers });
  return new Response(bytes.body as BodyInit, { status: 200, headers: { ...headers, 'content-type': bytes.contentType } });
}

/** The CORS preflight answer for public paths served with these methods. */
export function publicPreflight(methods: string, allowHeaders = 'If-None-Match, Accept'): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': allowHeaders,
      'access-control-max-age': '86400',
    },
  });
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
