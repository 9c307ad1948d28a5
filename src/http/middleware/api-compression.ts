// The organization API's JSON answers over 1 KB gzip- or deflate-compressed on the fly (hono/compress), as Accept-Encoding asks.
import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { ORGANIZATION_LIVE_PATH } from '../organization-live.js';
import { contentLength } from './content-length.js';

/** Answers under this many bytes are sent as they are (the same threshold as the page forms' variants). */
export const API_COMPRESS_MIN_BYTES = 1024;

const compressing = compress({ threshold: API_COMPRESS_MIN_BYTES });

/**
 * For /api/v1/*: measures the answer first (hono/compress applies its threshold only to a known Content-Length), then
 * compresses it. Public page forms (/api/v1/status/…) carry their own precomputed variants and are answered before
 * this runs; the live WebSocket is upgraded before the app; pushes and the relay wire live outside /api/v1.
 */
export const apiCompression: MiddlewareHandler = async (c, next) => {
  const path = c.req.path;
  if (path.startsWith('/api/v1/status/') || path === ORGANIZATION_LIVE_PATH) return next();
  return compressing(c, async () => {
    await contentLength(c, next);
  });
};
