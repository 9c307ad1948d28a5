// How the relay agent delivers a batch of queued results: acknowledged when the server answers for it, halved when the
// server finds it too large, dropped when refused as malformed, else kept on disk and retried with backoff.
import type { Logger } from '../logger.js';
import { type BackoffOptions, backoffDelay } from './backoff.js';
import { describeFailure, type RelayClient, RelayHttpError } from './client.js';
import { RELAY_LIMITS } from './protocol.js';
import type { QueuedBatch, ResultQueue } from './queue.js';

/** Rejections logged one by one per batch; the rest are counted. */
const REJECTIONS_LOGGED = 10;

export type Delivery = 'delivered' | 'failed' | 'retry';

export interface Deliverer {
  /** The oldest results, as many as a batch takes now. */
  nextBatch(): QueuedBatch;
  /** Sends one batch; `signal` (the main loop's) cuts it short on shutdown, after which the final flush sends it again. */
  deliver(batch: QueuedBatch, request?: { timeoutMs?: number; signal?: AbortSignal }): Promise<Delivery>;
  /** How long to wait after a failed delivery. */
  retryInMs(): number;
  batchSize(): number;
}

export function createDelivery(deps: {
  client: RelayClient;
  queue: ResultQueue;
  log: Logger;
  backoff: BackoffOptions;
  counts: { delivered: number; duplicates: number; rejected: number };
  batchSize: number;
}): Deliverer {
  const { client, queue, log, counts } = deps;
  let batchSize = deps.batchSize;
  let offlineSince: number | null = null;
  let failures = 0;
  let retryInMs = 0;

  function delivered(
    batch: QueuedBatch,
    answer: { accepted: number; duplicates: number; rejected: { index: number; reason: string }[] },
  ): void {
    counts.delivered += answer.accepted;
    counts.duplicates += answer.duplicates;
    counts.rejected += answer.rejected.length;
    for (const r of answer.rejected.slice(0, REJECTIONS_LOGGED))
      log.warn(
        { monitorId: monitorIdOf(batch.lines[r.index]), reason: r.reason },
        'the server rejected a result; it is dropped',
      );
    if (answer.rejected.length > REJECTIONS_LOGGED)
      log.warn({ more: answer.rejected.length - REJECTIONS_LOGGED }, 'the server rejected more results');
    if (offlineSince !== null) {
      log.info(
        { offlineMs: Date.now() - offlineSince, queued: queue.size() },
        'server reachable again; delivering the queued results',
      );
      offlineSince = null;
    }
    failures = 0;
    log.debug(
      {
        sent: batch.lines.length,
        accepted: answer.accepted,
        duplicates: answer.duplicates,
        rejected: answer.rejected.length,
        queued: queue.size(),
      },
      'results delivered',
    );
  }

  return {
    nextBatch: () => queue.peek(batchSize, RELAY_LIMITS.batchBytes - 64),
    retryInMs: () => retryInMs,
    batchSize: () => batchSize,
    async deliver(batch, request = {}) {
      try {
        const answer = await client.submit(`{"results":[${batch.lines.join(',')}]}`, request);
        await queue.ack(batch.upTo);
        delivered(batch, answer);
        return 'delivered';
      } catch (error) {
        if (error instanceof RelayHttpError && error.status === 413 && batch.lines.length > 1) {
          batchSize = Math.max(1, Math.floor(batch.lines.length / 2));
          log.warn({ batchSize }, 'the server found the batch too large; sending smaller ones');
          return 'retry';
        }
        if (error instanceof RelayHttpError && (error.status === 400 || error.status === 413)) {
          // Sending it again would get the same answer and hold up everything behind it.
          await queue.ack(batch.upTo);
          counts.rejected += batch.lines.length;
          log.error(
            { results: batch.lines.length, error: error.message },
            'the server refused a batch as malformed; it is dropped',
          );
          return 'delivered';
        }
        if (request.signal?.aborted) return 'failed';
        failures++;
        offlineSince ??= Date.now();
        retryInMs = backoffDelay(failures, deps.backoff);
        logRequestFailure(log, 'results', error, { attempt: failures, queued: queue.size(), retryInMs });
        return 'failed';
      }
    },
  };
}

/** A failed request, said once at warn level (the token refused: at error level, with what to do), then at debug. */
export function logRequestFailure(
  log: Logger,
  what: 'config' | 'results',
  error: unknown,
  at: { attempt: number; queued: number; retryInMs: number },
): void {
  const fields = { error: describeFailure(error), ...at };
  if (error instanceof RelayHttpError && error.status === 401)
    log.error(
      fields,
      'the server refused the relay token: check WARDEN_RELAY_TOKEN, or issue a new one with `warden relays token <key>`',
    );
  else if (at.attempt === 1)
    log.warn(
      fields,
      what === 'results'
        ? 'server unreachable; keeping results on disk and retrying with backoff'
        : 'cannot fetch the config',
    );
  else log.debug(fields, `${what}: still failing`);
}

function monitorIdOf(line: string | undefined): string | undefined {
  try {
    return (JSON.parse(line ?? '') as { monitorId?: string }).monitorId;
  } catch {
    return undefined;
  }
}
