// A fuzz campaign: batches of generated requests sent with a few at a time, each answer checked against the property, counts per status.
import fc from 'fast-check';
import type { FramedRequest } from './framing.js';
import { type BodySpec, type FuzzRequest, requestArbitrary } from './requests.js';
import { type Answer, createSender } from './send.js';
import type { FuzzServer } from './server.js';

export interface Violation {
  /** Replays it: WARDEN_FUZZ_SEED=<seed> and the same batch size give the same requests. */
  seed: number;
  batch: number;
  index: number;
  request: string;
  answer: Answer;
  reason: string;
}

export interface CampaignResult {
  seed: number;
  sent: number;
  /** By status ("200", "404", …) or by what happened instead ("closed without an answer", …). */
  counts: Record<string, number>;
  /** Well-formed requests by the route they were generated for ("GET /s/{slug}"). */
  routes: Record<string, number>;
  /** For each outcome that is not a status (a hang-up, a parse error), the first request it happened to. */
  examples: Record<string, string>;
  violations: Violation[];
  ms: number;
}

export interface CampaignOptions {
  runs: number;
  seed: number;
  concurrency?: number;
  batchSize?: number;
  /** Called after each batch (progress of long runs). */
  onBatch?(sent: number, result: CampaignResult): void;
}

/**
 * The property: no answer is a 5xx (but /readyz's deliberate 503 "not-ready" while the server starts or stops), every
 * error answer is application/problem+json, and a well-formed request is answered. Two error forms are other by
 * design: the HTML documents people read in a browser (a page's password form, its 404 and its 429) and, at /mcp, the
 * JSON-RPC 2.0 error objects the MCP transport answers in (what MCP clients parse).
 */
export function violationOf(request: FuzzRequest, answer: Answer): string | undefined {
  const path = pathOf(targetOf(request));
  if (answer.status === null)
    return request.kind === 'http' && answer.note?.startsWith('no answer') ? answer.note : undefined;
  if (
    answer.status >= 500 &&
    !(answer.status === 503 && path === '/readyz' && answer.problemType?.endsWith('/not-ready'))
  )
    return `answered ${answer.status}`;
  if (
    answer.status >= 400 &&
    !answer.contentType?.startsWith('application/problem+json') &&
    !isPageDocument(path, answer) &&
    !isJsonRpcError(path, answer)
  )
    return `answered ${answer.status} as ${answer.contentType ?? 'no content type'}, not application/problem+json`;
  return undefined;
}

/** A page's HTML document for people (the page, its embed, its login form; at /s/{slug} or a custom domain's root). */
const PAGE_DOCUMENT = /^(?:\/s\/[^/]+)?(?:\/|\/embed|\/login)?$/;

/**
 * The subscription pages a form posts to and a mail's links open (a page's subscribers', and an email channel's
 * recipients' at /notifications/…), and the acknowledge link an alert carries (/alerts/acknowledge): their refusals
 * are notice pages for people (JSON clients get problem+json where the route has a JSON form).
 */
const SUBSCRIPTION_DOCUMENT =
  /^(?:(?:\/s\/[^/]+)?\/(?:subscribe|subscribe\/confirm|unsubscribe)|\/notifications\/(?:confirm|unsubscribe)|\/alerts\/acknowledge)$/;

function isPageDocument(path: string, answer: Answer): boolean {
  const html = answer.contentType?.startsWith('text/html') ?? false;
  if (html && SUBSCRIPTION_DOCUMENT.test(path)) return (answer.status ?? 0) < 500;
  return [401, 404, 429].includes(answer.status ?? 0) && html && PAGE_DOCUMENT.test(path);
}

function isJsonRpcError(path: string, answer: Answer): boolean {
  return (
    path === '/mcp' &&
    (answer.contentType?.startsWith('application/json') ?? false) &&
    /^\{"jsonrpc":"2\.0","error":\{"code":-?\d+/.test(answer.bodyStart ?? '')
  );
}

/** The path as the server routes it: dot segments resolved, the query left out. */
function pathOf(target: string): string {
  try {
    return new URL(target, 'http://fuzz.test').pathname;
  } catch {
    return target;
  }
}

function targetOf(request: FuzzRequest): string {
  if (request.kind === 'http') return request.target;
  return /^\S+ (\S+)/.exec(request.bytes.subarray(0, 2048).toString('latin1'))?.[1] ?? '';
}

export async function runCampaign(server: FuzzServer, options: CampaignOptions): Promise<CampaignResult> {
  const { runs, seed, concurrency = 16, batchSize = 500 } = options;
  const arbitrary = requestArbitrary(server);
  const sender = createSender({ hostname: new URL(server.url).hostname, port: server.port }, concurrency);
  const result: CampaignResult = { seed, sent: 0, counts: {}, routes: {}, examples: {}, violations: [], ms: 0 };
  const started = performance.now();
  try {
    for (let batch = 0; result.sent < runs; batch++) {
      const requests = fc.sample(arbitrary, { seed: seed + batch, numRuns: Math.min(batchSize, runs - result.sent) });
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const index = next++;
          const request = requests[index] as FuzzRequest;
          const answer = await sender.send(request);
          const key =
            answer.status === null ? (answer.note ?? 'no answer').replace(/\d+/g, 'N') : String(answer.status);
          result.counts[key] = (result.counts[key] ?? 0) + 1;
          if (answer.status === null) result.examples[key] ??= describe(request);
          if (request.kind === 'http') result.routes[request.route] = (result.routes[request.route] ?? 0) + 1;
          const reason = violationOf(request, answer);
          if (reason) result.violations.push({ seed, batch, index, request: describe(request), answer, reason });
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      result.sent += requests.length;
      options.onBatch?.(result.sent, result);
    }
  } finally {
    sender.close();
    result.ms = Math.round(performance.now() - started);
  }
  return result;
}

/** A request in a line or two, cut where it would be huge. */
export function describe(request: FuzzRequest): string {
  if (request.kind === 'raw') return `raw TCP (${request.mutation}): ${JSON.stringify(rawHead(request))}`;
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${cut(value, 80)}`)
    .join('; ');
  return `${request.method} ${cut(request.target, 200)} [${headers}] body ${describeBody(request.body)} (${request.mutation})`;
}

function rawHead(request: FramedRequest): string {
  return cut(request.bytes.subarray(0, 400).toString('latin1'), 400);
}

function describeBody(body: BodySpec | null): string {
  if (!body) return 'none';
  if (body.type === 'json') return cut(JSON.stringify(body.value) ?? 'undefined', 300);
  if (body.type === 'text') return JSON.stringify(cut(body.text, 200));
  if (body.type === 'bytes') return `bytes ${Buffer.from(body.bytes).toString('hex')}`;
  return JSON.stringify(body);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Violations grouped by reason and by what was done to the request, each with a first example. */
export function groupViolations(violations: readonly Violation[]): string {
  const groups = new Map<string, { n: number; example: Violation }>();
  for (const v of violations) {
    const what = /^raw TCP \(([^:)]+)/.exec(v.request)?.[1] ?? /\(([^()]*)\)$/.exec(v.request)?.[1] ?? '';
    const key = `${v.reason} · ${what}`;
    const group = groups.get(key);
    if (group) group.n++;
    else groups.set(key, { n: 1, example: v });
  }
  return [...groups.entries()]
    .sort(([, a], [, b]) => b.n - a.n)
    .map(
      ([key, { n, example }]) =>
        `  ${String(n).padStart(5)}  ${key}\n         e.g. (batch ${example.batch} #${example.index}) ${example.request}`,
    )
    .join('\n');
}

/** Counts as lines, most frequent first. */
export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([key, n]) => `  ${String(n).padStart(7)}  ${key}`)
    .join('\n');
}
