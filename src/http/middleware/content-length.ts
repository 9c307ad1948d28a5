// Every answer of the app carries its Content-Length, as the pre-router's do: clients know the size, and the two send the same headers.
import type { MiddlewareHandler } from 'hono';

/** Answers are small and already in memory (Warden streams nothing), so reading one to measure it costs a copy at most. */
export const contentLength: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (res.body === null || res.headers.has('content-length') || res.status === 304 || res.status === 204) return;
  const body = await res.arrayBuffer();
  const headers = new Headers(res.headers);
  headers.set('content-length', String(body.byteLength));
  c.res = undefined;
  c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
};
