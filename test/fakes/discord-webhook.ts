// A fake Discord that keeps the webhook API's semantics (discord.com/developers/docs/resources/webhook): messages with
// snowflake ids posted by POST /api/webhooks/{id}/{token}?wait=true, edited by PATCH …/messages/{message_id}, 404
// `Unknown Message` (10008) for one deleted, 404 `Unknown Webhook` (10015) and 401 `Invalid Webhook Token` (50027),
// GET of the webhook itself, and rate limits answered with 429, Retry-After and a JSON `retry_after` in seconds — both
// Discord's bucket (5 requests per 2 s per webhook) and limits a test imposes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DiscordMessage {
  id: string;
  /** The body as last posted or edited. */
  body: { username?: string; embeds?: DiscordEmbedSeen[]; content?: string };
  /** Edits it went through (the post not counted). */
  edits: number;
}

export interface DiscordEmbedSeen {
  title: string;
  description: string;
  color: number;
  url?: string;
  fields: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  timestamp?: string;
}

export interface DiscordRequest {
  method: string;
  path: string;
  status: number;
  at: number;
}

export interface FakeDiscord {
  /** The webhook URL of its one webhook (`…/api/webhooks/{id}/{token}`). */
  webhookUrl: string;
  messages: Map<string, DiscordMessage>;
  requests: DiscordRequest[];
  /** The message most recently posted or edited. */
  latest(): DiscordMessage | undefined;
  /** Deletes a message, as a moderator would. */
  deleteMessage(id: string): void;
  /** The next `count` requests answer 429 with this retry_after (seconds). */
  rateLimit(count: number, retryAfterSec: number): void;
  /** Deletes the webhook: every request answers 404 Unknown Webhook. */
  deleteWebhook(): void;
  /** Answers every request 500 (true) or normally again (false). */
  fail(on: boolean): void;
  close(): Promise<void>;
}

const WEBHOOK_ID = '1234567890123456789';
const TOKEN = 'Xy-aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789_abcdefghijkLMNOP';
/** Discord's per-webhook bucket. */
const BUCKET = { requests: 5, perMs: 2_000 };

/** `now`: the clock of its rate limit bucket (a test's own clock, when it steps time rather than sleeping). */
export async function startFakeDiscord(options: { now?: () => number } = {}): Promise<FakeDiscord> {
  const clock = options.now ?? Date.now;
  const messages = new Map<string, DiscordMessage>();
  const requests: DiscordRequest[] = [];
  let forced: { count: number; retryAfterSec: number } | null = null;
  let webhookGone = false;
  let failing = false;
  let lastTouched: string | undefined;
  let nextId = 1_100_000_000_000_000_000n;
  const recent: number[] = [];

  function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  function limited(res: ServerResponse, retryAfterSec: number, global = false) {
    answer(
      res,
      429,
      { message: 'You are being rate limited.', retry_after: retryAfterSec, global },
      {
        'retry-after': String(Math.ceil(retryAfterSec)),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': String(retryAfterSec),
        'x-ratelimit-scope': 'user',
      },
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://discord.test');
    const match = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/(\d+))?$/.exec(url.pathname);
    if (!match) return answer(res, 404, { message: '404: Not Found', code: 0 });
    if (failing) return answer(res, 500, { message: 'Internal Server Error', code: 0 });
    if (webhookGone || match[1] !== WEBHOOK_ID) return answer(res, 404, { message: 'Unknown Webhook', code: 10015 });
    if (match[2] !== TOKEN) return answer(res, 401, { message: 'Invalid Webhook Token', code: 50027 });
    if (forced && forced.count > 0) {
      forced.count--;
      return limited(res, forced.retryAfterSec);
    }
    const now = clock();
    while (recent.length > 0 && (recent[0] as number) <= now - BUCKET.perMs) recent.shift();
    if (recent.length >= BUCKET.requests) return limited(res, ((recent[0] as number) + BUCKET.perMs - now) / 1000);
    recent.push(now);
    const messageId = match[3];
    if (req.method === 'GET' && !messageId)
      return answer(res, 200, {
        id: WEBHOOK_ID,
        type: 1,
        guild_id: '81384788765712384',
        channel_id: '81384788765712385',
        name: 'Warden',
        token: TOKEN,
      });
    const parsed = body ? (JSON.parse(body) as DiscordMessage['body']) : {};
    if (req.method === 'POST' && !messageId) {
      const id = String(nextId++);
      messages.set(id, { id, body: parsed, edits: 0 });
      lastTouched = id;
      // Without ?wait=true Discord answers 204 and no message: the id could not be known.
      if (url.searchParams.get('wait') !== 'true') return void res.writeHead(204).end();
      return answer(res, 200, { id, type: 0, channel_id: '81384788765712385', webhook_id: WEBHOOK_ID, ...parsed });
    }
    if (req.method === 'PATCH' && messageId) {
      const message = messages.get(messageId);
      if (!message) return answer(res, 404, { message: 'Unknown Message', code: 10008 });
      message.body = { ...message.body, ...parsed };
      message.edits++;
      lastTouched = messageId;
      return answer(res, 200, { id: messageId, type: 0, webhook_id: WEBHOOK_ID, ...message.body });
    }
    return answer(res, 405, { message: '405: Method Not Allowed', code: 0 });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').replace(TOKEN, '{token}');
      res.on('finish', () => requests.push({ method: req.method ?? '', path, status: res.statusCode, at: Date.now() }));
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() =>
        answer(res, 500, { message: 'fake failed' }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    webhookUrl: `http://127.0.0.1:${port}/api/webhooks/${WEBHOOK_ID}/${TOKEN}`,
    messages,
    requests,
    latest: () => (lastTouched === undefined ? undefined : messages.get(lastTouched)),
    deleteMessage: (id) => void messages.delete(id),
    rateLimit(count, retryAfterSec) {
      forced = { count, retryAfterSec };
    },
    deleteWebhook() {
      webhookGone = true;
    },
    fail(on) {
      failing = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
