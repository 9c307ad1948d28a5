// Requests the server cannot read (bad framing, an unknown method, headers too large, no Host, an unreadable target) answered as problem+json, like every other error.
import { type RequestListener, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from './problem.js';

/** Node's parser errors that mean something other than "not HTTP/1.1" (400), by their code. */
const PARSER_PROBLEMS: Record<string, Problem> = {
  HPE_HEADER_OVERFLOW: problem(
    431,
    'headers-too-large',
    'Request headers too large',
    'The request line and headers are larger than this server reads.',
  ),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: problem(
    413,
    'body-too-large',
    'Body too large',
    'The chunk extensions are larger than this server reads.',
  ),
  ERR_HTTP_REQUEST_TIMEOUT: problem(408, 'request-timeout', 'Request timeout', 'The request did not arrive in time.'),
};
const MALFORMED = problem(
  400,
  'malformed',
  'Malformed request',
  'The request is not valid HTTP/1.1: check its request line, headers and framing.',
);
const NO_HOST = problem(400, 'malformed', 'Malformed request', 'An HTTP/1.1 request needs a Host header.');
const BAD_TARGET = problem(
  400,
  'malformed',
  'Malformed request',
  'The request target or the Host header cannot be read as a URL.',
);
const EXPECTATION = problem(
  417,
  'expectation-failed',
  'Expectation failed',
  'The only expectation this server meets is "100-continue".',
);
const NO_TUNNEL = problem(
  405,
  'method-not-allowed',
  'Method not allowed',
  'This server is not a proxy: CONNECT is not supported.',
);

/**
 * Answers what Node's HTTP parser refuses (by default a bare 400 with no body), unmet `Expect` headers (a bare 417)
 * and CONNECT (by default no answer at all).
 * The server must be created with `requireHostHeader: false`, and its listener wrapped in `requiringHost`, for a
 * request without Host to get the same answer.
 */
export function answerUnreadableRequests(server: Server): void {
  /** Connections already answered: the parser may still trip over the bytes that follow, and one answer is all they get. */
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own handler writes nothing either once a response has begun on the connection, or when it cannot write.
    const started = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || started || answered.has(socket)) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    // An answer to HEAD has no body (a client would read one as garbage after the answer).
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(rawAnswer(PARSER_PROBLEMS[error.code ?? ''] ?? MALFORMED, head));
  });
  server.on('checkExpectation', (_req, res: ServerResponse) => sendProblem(res, EXPECTATION));
  // Without a listener Node hangs up on CONNECT without a word.
  server.on('connect', (_req, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(rawAnswer(NO_TUNNEL));
  });
}

/** A listener that answers an HTTP/1.1 request without Host with a 400 (RFC 9112, 3.2), and passes the others on. */
export function requiringHost(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1)
      return sendProblem(res, NO_HOST);
    listener(req, res);
  };
}

/** @hono/node-server's answer when it cannot build a Request (an empty or invalid Host, a target such as "*"). */
export function unreadableTargetResponse(): Response {
  return new Response(JSON.stringify(BAD_TARGET), {
    status: 400,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, connection: 'close' },
  });
}

function sendProblem(res: ServerResponse, body: Problem): void {
  const bytes = JSON.stringify(body);
  res.writeHead(body.status, {
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': Buffer.byteLength(bytes),
    connection: 'close',
  });
  res.end(bytes);
}

function rawAnswer(body: Problem, headOnly = false): string {
  const bytes = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(bytes)}`,
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${headOnly ? '' : bytes}`;
}
