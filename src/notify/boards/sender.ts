// Sends boards' pending edits: each due edit this process claims goes as an edit of the board's message (PATCH
// {webhook}/messages/{id}), or as a new message (POST {webhook}?wait=true, its id kept) when there is none yet or
// Discord says it was deleted (404, code 10008). A 429 waits its retry_after; 5xx and network failures back off; a
// webhook that is gone or refuses the token stops the board until it is changed. Through the organization's target guard.
import { BOARD_LIMITS, type ClaimedEdit, parseDiscordWebhook } from '../../domain/board.js';
import type { Clock } from '../../domain/clock.js';
import { httpGet } from '../../net/http-get.js';
import type { TargetGuard } from '../../net/target-guard.js';
import type { Store } from '../../store/index.js';
import { clipAnswer, retryAfterMs, unreached } from '../channels/outcome.js';

/** Pending edits one pass claims at most. */
export const BOARD_SEND_BATCH = 20;
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Discord's JSON error codes that mean the message, or the webhook, is gone. */
const UNKNOWN_MESSAGE = 10008;
const WEBHOOK_GONE = new Set([10015, 50027]);

export interface BoardSenderDeps {
  store: Store;
  clock: Clock;
  guards: (organizationId: string) => Promise<TargetGuard>;
  /** Aborted on shutdown: an attempt in flight is given up (its claim lapses, another pass sends it). */
  signal?: AbortSignal | undefined;
}

type Reply =
  | { status: number; body: string; retryAfter: string | null }
  | { unreachedCode: string | undefined; error: string };

/** One pass: claims the due edits and sends each; resolves to how many were shown. */
export function createBoardSender(deps: BoardSenderDeps): () => Promise<number> {
  async function request(edit: ClaimedEdit, method: 'POST' | 'PATCH', url: string): Promise<Reply> {
    const body = JSON.stringify(edit.payload);
    const signal = AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), ...(deps.signal ? [deps.signal] : [])]);
    const result = await httpGet({
      url,
      method,
      headers: {
        'user-agent': 'Warden/0.1 (boards)',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
      maxRedirects: 0,
      maxBodyBytes: 16_384,
      signal,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      guard: await deps.guards(edit.board.organizationId),
    });
    if (!result.ok) return { unreachedCode: result.code, error: result.error };
    const retryAfter = result.response.headers['retry-after'];
    return {
      status: result.response.status,
      body: result.response.body.toString('utf8'),
      retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
    };
  }

  /** Edits the message, or posts a new one: the id of the message shown, or the reply that says why not. */
  async function show(edit: ClaimedEdit): Promise<{ messageId: string } | { reply: Reply; forgot: boolean }> {
    const webhook = parseDiscordWebhook(edit.board.webhookUrl);
    if (!webhook) return { reply: { status: 400, body: 'not a Discord webhook URL', retryAfter: null }, forgot: false };
    let forgot = false;
    if (edit.delivery.messageId !== null) {
      const edited = await request(edit, 'PATCH', `${webhook.base}/messages/${edit.delivery.messageId}`);
      if ('status' in edited && edited.status >= 200 && edited.status < 300)
        return { messageId: edit.delivery.messageId };
      if (!('status' in edited) || edited.status !== 404 || discordCode(edited.body) !== UNKNOWN_MESSAGE)
        return { reply: edited, forgot };
      // Someone deleted the message: a new one is posted and remembered.
      forgot = true;
    }
    const posted = await request(edit, 'POST', `${webhook.base}?wait=true`);
    if ('status' in posted && posted.status >= 200 && posted.status < 300) {
      const id = messageIdOf(posted.body);
      if (id) return { messageId: id };
      return { reply: { status: 502, body: 'Discord answered without a message id', retryAfter: null }, forgot };
    }
    return { reply: posted, forgot };
  }

  async function send(edit: ClaimedEdit): Promise<boolean> {
    const now = () => deps.clock.now();
    const outcome = await show(edit);
    if ('messageId' in outcome) {
      await deps.store.boards.recordShown(edit.board.id, {
        messageId: outcome.messageId,
        sentHash: edit.pendingHash,
        at: now(),
      });
      return true;
    }
    const { reply, forgot } = outcome;
    const forget = forgot ? { messageId: null } : {};
    if (!('status' in reply)) {
      const classified = unreached(reply.unreachedCode, reply.error);
      const error = 'error' in classified ? classified.error : reply.error;
      if (classified.kind === 'dead') await deps.store.boards.recordStopped(edit.board.id, error);
      else await retry(edit, error, undefined, forget);
      return false;
    }
    const { status, body } = reply;
    const error = `HTTP ${status}${body ? `: ${clipAnswer(body).slice(0, 300)}` : ''}`;
    if (status === 429) await retry(edit, error, rateLimitMs(reply, now()), forget);
    else if (status === 408 || status >= 500) await retry(edit, error, undefined, forget);
    else if ((status === 404 || status === 401) && WEBHOOK_GONE.has(discordCode(body) ?? -1))
      await deps.store.boards.recordStopped(edit.board.id, `the webhook is gone or its token is wrong (${error})`);
    else await deps.store.boards.recordStopped(edit.board.id, `Discord refused the message (${error})`);
    return false;
  }

  async function retry(edit: ClaimedEdit, error: string, afterMs: number | undefined, forget: { messageId?: null }) {
    const attempts = edit.delivery.attempts + 1;
    const backoff = Math.min(BOARD_LIMITS.retryBaseMs * 2 ** (attempts - 1), BOARD_LIMITS.retryMaxMs);
    // A rate limit is no failure of the receiver: the attempt count stays, the wait is Discord's.
    await deps.store.boards.recordRetry(edit.board.id, {
      dueAt: deps.clock.now() + (afterMs ?? backoff),
      attempts: afterMs === undefined ? attempts : edit.delivery.attempts,
      error,
      ...forget,
    });
  }

  return async function pass(): Promise<number> {
    let shown = 0;
    const edits = await deps.store.boards.claimDue(deps.clock.now(), BOARD_SEND_BATCH);
    for (const edit of edits) {
      if (deps.signal?.aborted) break;
      if (await send(edit)) shown++;
    }
    return shown;
  };
}

function discordCode(body: string): number | undefined {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

function messageIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' && /^\d{1,25}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Discord's wait: the body's retry_after (seconds, fractional) or the Retry-After header; at least a second. */
function rateLimitMs(reply: { body: string; retryAfter: string | null }, now: number): number {
  let seconds: number | undefined;
  try {
    const value = (JSON.parse(reply.body) as { retry_after?: unknown }).retry_after;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) seconds = value;
  } catch {}
  const ms = seconds !== undefined ? seconds * 1000 : retryAfterMs(reply.retryAfter, now);
  return Math.min(Math.max(ms ?? 1000, 250), BOARD_LIMITS.retryMaxMs);
}
