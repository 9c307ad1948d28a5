// A client streaming a huge chunked body (no Content-Length) as fast as the server takes it, noting how much it had
// sent when the answer came (a server that stops reading at its cap answers long before the end) and how soon the
// server closed the connection after it.
import { request } from 'node:http';

export interface UploadAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes the client had handed to the socket when the answer's headers arrived. */
  sentAtAnswer: number;
  /** Milliseconds from the start to the answer's headers. */
  ms: number;
  /** Milliseconds from the answer to the server closing the connection (Infinity: still open after 10 s). */
  closedAfterMs: number;
}

/** How long the client waits, after the answer, for the server to close the connection. */
const CLOSE_WAIT_MS = 10_000;

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * POSTs `prefix`, then up to `totalBytes` of filler, chunked. Once the answer has come, writing stops and the client
 * waits for the server to close the connection (it has stopped reading; an EPIPE or reset is expected), then resolves.
 */
export function uploadChunked(
  url: string,
  options: { headers?: Record<string, string>; totalBytes: number; prefix?: string },
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    let answer: Omit<UploadAnswer, 'closedAfterMs'> | undefined;
    let answeredAt = 0;
    let closedAt: number | undefined;
    const finish = () => {
      if (answer === undefined || closedAt === undefined) return;
      clearTimeout(timer);
      resolve({ ...answer, closedAfterMs: closedAt - answeredAt });
    };
    const timer = setTimeout(() => {
      closedAt = Number.POSITIVE_INFINITY;
      req.destroy();
      finish();
    }, 60_000);
    const req = request(
      url,
      { method: 'POST', headers: { ...options.headers, 'transfer-encoding': 'chunked' } },
      (res) => {
        answeredAt = performance.now();
        const head = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          sentAtAnswer: sent,
          ms: answeredAt - started,
        };
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        const done = () => {
          answer ??= { ...head, body };
          finish();
        };
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
        setTimeout(() => {
          if (closedAt === undefined) {
            closedAt = Number.POSITIVE_INFINITY;
            req.destroy();
          }
        }, CLOSE_WAIT_MS).unref();
      },
    );
    req.on('close', () => {
      closedAt ??= performance.now();
      if (answer === undefined && answeredAt === 0) {
        clearTimeout(timer);
        reject(new Error(`the connection closed without an answer after ${sent} bytes`));
      } else finish();
    });
    req.on('error', () => {});
    if (options.prefix) req.write(options.prefix);
    const pump = (): void => {
      while (answeredAt === 0 && sent < options.totalBytes) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) {
          req.once('drain', pump);
          return;
        }
      }
      if (answeredAt === 0) req.end();
    };
    pump();
  });
}
