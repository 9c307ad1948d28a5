// Sends a fuzzed request (node:http, or raw bytes over node:net) and reads what a client would notice: status, content type, problem type.
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FramedRequest } from './framing.js';
import { bodyBytes, type FuzzRequest, type HttpRequest } from './requests.js';

export interface Answer {
  /** Null when no response came: the connection was closed, or nothing arrived in time. */
  status: number | null;
  contentType: string | null;
  /** The `type` of a problem+json body. */
  problemType: string | null;
  /** The start of the body, as text. */
  bodyStart?: string;
  /** Why there is no status, or what the answer was cut short by. */
  note?: string;
}

/** A well-formed request gets this long for its answer; the slowest legitimate one hashes a page password. */
const HTTP_TIMEOUT_MS = 15_000;
/** A badly framed one: the server answers, or hangs up soon after the client ends its side. */
const RAW_TIMEOUT_MS = 5_000;
/** How long a truncated request's connection waits for a first byte before ending its side. */
const RAW_QUIET_MS = 100;
/** Bytes of a body read to find a problem's type; the rest is drained. */
const PROBLEM_BYTES = 4096;

export function createSender(origin: { hostname: string; port: number }, concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  return {
    send: (request: FuzzRequest): Promise<Answer> =>
      request.kind === 'http' ? sendHttp(request, origin, agent) : sendRaw(request, origin),
    close: () => agent.destroy(),
  };
}

function sendHttp(request: HttpRequest, origin: { hostname: string; port: number }, agent: Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const body = request.body ? bodyBytes(request.body) : null;
    let settled = false;
    const done = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    let req: ReturnType<typeof httpRequest>;
    try {
      // Node frames a body of a GET (or DELETE, …) only when told its length: without it the bytes would follow unframed.
      const headers = body ? { ...request.headers, 'content-length': String(body.length) } : request.headers;
      req = httpRequest({
        ...origin,
        agent,
        method: request.method,
        path: request.target,
        headers,
        setHost: !('host' in request.headers),
      });
    } catch (error) {
      // The client refused to send it (a header it considers invalid): nothing reached the server.
      return resolve({
        status: null,
        contentType: null,
        problemType: null,
        note: `not sent: ${(error as Error).message}`,
      });
    }
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, contentType: null, problemType: null, note: `no answer within ${HTTP_TIMEOUT_MS} ms` });
    }, HTTP_TIMEOUT_MS);
    req.on('response', (res) => {
      const contentType = res.headers['content-type'] ?? null;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (bytes < PROBLEM_BYTES) chunks.push(chunk);
        bytes += chunk.length;
      });
      const finish = (note?: string) =>
        done({
          status: res.statusCode ?? null,
          contentType,
          ...bodyFacts(contentType, Buffer.concat(chunks)),
          ...(note ? { note } : {}),
        });
      res.on('end', () => finish());
      res.on('error', () => finish('response cut short'));
      res.on('aborted', () => finish('response cut short'));
    });
    req.on('error', (error) =>
      done({ status: null, contentType: null, problemType: null, note: `connection error: ${error.message}` }),
    );
    req.on('socket', guardSocket);
    req.end(body ?? undefined);
  });
}

const guarded = new WeakSet<Socket>();

/**
 * A server that answers early (a 413 before the body is read) and closes makes the rest of the body's write fail with
 * EPIPE after the request has let go of its socket; Node then has no listener for it and would crash the fuzzer.
 */
function guardSocket(socket: Socket): void {
  if (guarded.has(socket)) return;
  guarded.add(socket);
  socket.on('error', () => {});
}

function sendRaw(request: FramedRequest, origin: { hostname: string; port: number }): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect({ host: origin.hostname, port: origin.port });
    const chunks: Buffer[] = [];
    const head = request.bytes.subarray(0, 5).toString('latin1') === 'HEAD ';
    let settled = false;
    const done = (note?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(idle);
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks), note));
    };
    const timer = setTimeout(() => done(`still open after ${RAW_TIMEOUT_MS} ms`), RAW_TIMEOUT_MS);
    // The write side stays open while the server may still answer (Node drops a request whose client hangs up first);
    // a server left waiting for bytes (a truncated request) gets the end of the stream after a quiet moment.
    let idle: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(request.bytes);
      if (request.truncated) idle = setTimeout(() => socket.end(), RAW_QUIET_MS);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(idle);
      if (responseComplete(Buffer.concat(chunks), head)) done();
    });
    socket.on('error', (error) => done(`connection error: ${error.message}`));
    socket.on('close', () => done());
  });
}

/** Whether the bytes hold a whole first response: its head and all of its body (a 101, or an answer to HEAD, has none). */
function responseComplete(bytes: Buffer, toHead: boolean): boolean {
  const text = bytes.toString('latin1').replace(/^(HTTP\/1\.[01] 100 [^\r]*\r\n\r\n)+/, '');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const head = text.slice(0, end);
  if (toHead || /^HTTP\/1\.[01] (1\d\d|204|304) /.test(head)) return true;
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  if (length) return text.length - end - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) return text.endsWith('0\r\n\r\n');
  return false;
}

/** The first response on a raw connection (a 100 Continue is skipped); no status when none arrived. */
export function parseResponse(bytes: Buffer, note?: string): Answer {
  let text = bytes.toString('latin1');
  while (/^HTTP\/1\.[01] 100 /.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!match || end === -1)
    return {
      status: null,
      contentType: null,
      problemType: null,
      note: note ?? (text.length === 0 ? 'closed without an answer' : 'partial answer'),
    };
  const head = text.slice(0, end);
  const contentType = /\r\ncontent-type:[ \t]*([^\r\n]*)/i.exec(head)?.[1]?.trim() ?? null;
  return {
    status: Number(match[1]),
    contentType,
    ...bodyFacts(contentType, Buffer.from(text.slice(end + 4, end + 4 + PROBLEM_BYTES), 'latin1')),
  };
}

function bodyFacts(contentType: string | null, body: Buffer): Pick<Answer, 'problemType' | 'bodyStart'> {
  const text = body.subarray(0, PROBLEM_BYTES).toString('utf8');
  const type = contentType?.startsWith('application/problem+json')
    ? (/"type":"([^"]*)"/.exec(text)?.[1] ?? null)
    : null;
  return { problemType: type, bodyStart: text.slice(0, 512) };
}
