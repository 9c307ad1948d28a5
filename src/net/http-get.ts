// The one bounded HTTP(S) client every HTTP-speaking probe uses: abortable, byte-capped, redirect-limited, certificate-aware.
import { type ClientRequest, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { CERTIFICATE_ERRORS, type CertificateExpiry, certificateExpiry } from './certificates.js';
import type { NetContext } from './context.js';
import { describeNetworkError } from './network-error.js';
import { withSocket } from './socket-exchange.js';
import { dialFor, unixSocketRefusal } from './target-guard.js';

/** Limits on what a probe's HTTP exchange may cost, whatever the server does. */
export const HTTP_GET_LIMITS = {
  /** Body bytes read before reading stops (the response is then marked truncated). */
  bodyBytes: 1024 * 1024,
  /** Redirects followed at most, whatever a caller asks for. */
  redirects: 10,
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Warden/0.1 (status monitor)';

/**
 * What to fetch, and the probe's signal, timeout and target guard: each hop, redirects included, connects only to
 * addresses the guard allows.
 */
export interface HttpGetRequest extends NetContext {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** 0 returns a redirect as the response; above 0, a chain longer than this is an error. */
  maxRedirects?: number;
  /** Stop reading after this many bytes; defaults to HTTP_GET_LIMITS.bodyBytes. */
  maxBodyBytes?: number;
  /** False skips the body entirely (a status-only check needs no bytes past the headers). */
  readBody?: boolean;
  ignoreTls?: boolean;
  /**
   * Send the request through this unix socket (the URL then names only the path and the Host header); refused under
   * a restricting guard, and no redirect is followed.
   */
  socketPath?: string;
}

export interface HttpGetResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** True when the body was longer than the cap and reading stopped there. */
  truncated: boolean;
  /** Milliseconds from the start until the final response's headers arrived. */
  latencyMs: number;
  redirects: number;
  /** The certificate that expires first along the redirect chain, for https hops. */
  tls?: CertificateExpiry;
}

/** A failure's `code`, when a socket, DNS, TLS or the target guard raised it (ECONNREFUSED, ABORT_ERR, …), says which. */
export type HttpGetResult = { ok: true; response: HttpGetResponse } | { ok: false; error: string; code?: string };

/** Never throws: every failure becomes a plain-language error with request header values scrubbed out. */
export async function httpGet(input: HttpGetRequest): Promise<HttpGetResult> {
  const started = performance.now();
  const maxRedirects =
    input.socketPath === undefined ? Math.min(input.maxRedirects ?? 0, HTTP_GET_LIMITS.redirects) : 0;
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return { ok: false, error: 'invalid URL' };
  }
  let method = (input.method ?? 'GET').toUpperCase();
  let body = input.body;
  let headers = withDefaultHeaders(input.headers ?? {});
  let tls: CertificateExpiry | undefined;
  try {
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return { ok: false, error: `cannot follow a redirect to a ${url.protocol} URL` };
      const outcome = await requestOnce(url, { method, headers, body, ignoreTls: input.ignoreTls ?? false }, input);
      if ('failure' in outcome) throw outcome.failure;
      const { hop } = outcome;
      tls = earlier(tls, hop.tls);
      const location = hop.headers.location;
      const follow = REDIRECT_STATUSES.has(hop.status) && typeof location === 'string' && maxRedirects > 0;
      if (!follow) {
        const latencyMs = Math.round(hop.headersAt - started);
        return {
          ok: true,
          response: {
            status: hop.status,
            headers: hop.headers,
            body: hop.body,
            truncated: hop.truncated,
            latencyMs,
            redirects,
            tls,
          },
        };
      }
      if (redirects >= maxRedirects)
        return { ok: false, error: `more than ${maxRedirects} redirect${maxRedirects === 1 ? '' : 's'}` };
      const next = new URL(location, url);
      // Any configured header may be a secret (X-API-Key as much as Authorization): none follows to another origin.
      if (next.origin !== url.origin) headers = withDefaultHeaders({});
      // 303 always, and 301/302 after a POST, turn into a GET without a body (as browsers and fetch do).
      if (
        (hop.status === 303 && method !== 'HEAD') ||
        ((hop.status === 301 || hop.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const failure = {
      ok: false as const,
      error: scrub(describeRequestError(error, input.timeoutMs), Object.values(input.headers ?? {})),
    };
    return typeof code === 'string' ? { ...failure, code } : failure;
  }
}

/** The body as text, for keyword search and JSON. */
export function bodyText(response: HttpGetResponse): string {
  return response.body.toString('utf8');
}

/** Parses a JSON body; undefined when it is not JSON (or was cut off by the byte cap). */
export function bodyJson(response: HttpGetResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(bodyText(response));
  } catch {
    return undefined;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

interface Hop {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  headersAt: number;
  tls?: CertificateExpiry;
}

interface HopInit {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  ignoreTls: boolean;
}

type HopOutcome = { hop: Hop } | { failure: unknown };

function requestOnce(url: URL, init: HopInit, input: HttpGetRequest): Promise<HopOutcome> {
  const cap = input.maxBodyBytes ?? HTTP_GET_LIMITS.bodyBytes;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  // Checked at every hop: a redirect to a refused address fails here, before anything is sent to it.
  const dial =
    input.socketPath === undefined ? dialFor(input.guard, url.hostname) : unixDial(input.guard, input.socketPath);
  if ('refused' in dial) return Promise.resolve({ failure: dial.refused });
  // agent: false gives each request its own non-keep-alive agent, so the socket closes when the check ends; the
  // guard's lookup (for a name) goes with the options down to the socket.
  const open = () =>
    request(url, {
      method: init.method,
      headers: init.headers,
      agent: false,
      rejectUnauthorized: !init.ignoreTls,
      ...dial,
    });
  return withSocket<ClientRequest, HopOutcome>(
    open,
    input,
    () => ({ failure: abortError() }),
    (req, { finish }) => {
      const fail = (failure: unknown) => finish({ failure });
      const succeed = (hop: Hop) => finish({ hop });
      req.on('error', fail);
      req.on('response', (res: IncomingMessage) => {
        const headersAt = performance.now();
        const tls = certificateOf(res);
        const status = res.statusCode ?? 0;
        const hop = { status, headers: res.headers, headersAt, tls };
        if (input.readBody === false || REDIRECT_STATUSES.has(status) || init.method === 'HEAD') {
          succeed({ ...hop, body: Buffer.alloc(0), truncated: false });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size + chunk.length > cap) {
            chunks.push(chunk.subarray(0, cap - size));
            succeed({ ...hop, body: Buffer.concat(chunks), truncated: true });
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => succeed({ ...hop, body: Buffer.concat(chunks), truncated: false }));
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete)
            fail(Object.assign(new Error('connection closed before the body was complete'), { code: 'EPIPE' }));
        });
      });
      req.end(init.body);
    },
  );
}

function unixDial(guard: HttpGetRequest['guard'], socketPath: string): { socketPath: string } | { refused: Error } {
  const refused = unixSocketRefusal(guard, socketPath);
  return refused ? { refused } : { socketPath };
}

function certificateOf(res: IncomingMessage): CertificateExpiry | undefined {
  const socket = res.socket as TLSSocket | null;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  return certificateExpiry(socket.getPeerCertificate().valid_to);
}

function earlier(a: CertificateExpiry | undefined, b: CertificateExpiry | undefined): CertificateExpiry | undefined {
  if (!a || !b) return a ?? b;
  return b.validTo < a.validTo ? b : a;
}

function withDefaultHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  const names = new Set(Object.keys(out).map((name) => name.toLowerCase()));
  if (!names.has('user-agent')) out['user-agent'] = USER_AGENT;
  // No Accept-Encoding: servers answer uncompressed, so the byte cap measures what is read and no bomb can inflate.
  return out;
}

function abortError(): Error {
  return Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

function describeRequestError(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return `${CERTIFICATE_ERRORS[code]} (set ignoreTls to accept it)`;
  if (code && CERTIFICATE_ERRORS[code]) return CERTIFICATE_ERRORS[code];
  if (code === 'EPROTO') return 'TLS handshake failed';
  if (code === 'EPIPE' && error instanceof Error && error.message.startsWith('connection closed')) return error.message;
  if (code === 'HPE_HEADER_OVERFLOW') return 'response headers too large';
  if (code?.startsWith('HPE_')) return 'the server sent an invalid HTTP response';
  return describeNetworkError(error, timeoutMs);
}

function scrub(text: string, secrets: string[]): string {
  let out = text;
  // Short values would mangle ordinary words and are not secrets worth the name.
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}
