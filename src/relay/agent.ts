// The relay agent: pulls its config, probes its monitors, and delivers the results through an on-disk queue, backing off while the server is away.

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { counted } from '../domain/counted.js';
import type { Logger } from '../logger.js';
import { ANY_TARGET } from '../net/target-guard.js';
import type { ProbeDefinition } from '../probes/probe.js';
import { createProbeSchedule, type ProbeSchedule, type ProbeScheduleDeps } from '../runner/probe-schedule.js';
import { BACKOFF_DEFAULTS, type BackoffOptions, backoffDelay } from './backoff.js';
import { createRelayClient, type RelayClient } from './client.js';
import { createDelivery, type Deliverer, logRequestFailure } from './delivery.js';
import {
  RELAY_LIMITS,
  type RelayConfig,
  type RelayMonitor,
  relayConfigSchema,
  SECRETS_WITHHELD_ERROR,
} from './protocol.js';
import { openResultQueue, type ResultQueue } from './queue.js';

export const AGENT_DEFAULTS = {
  /** How often queued results are sent while the server answers. */
  submitEveryMs: 5_000,
  /** How often the config is polled (304 while unchanged). */
  configEveryMs: RELAY_LIMITS.configPollSec * 1000,
  /** Results per POST; the server takes up to RELAY_LIMITS.resultsPerBatch. */
  batchSize: 500,
  /** On shutdown, how long the agent keeps trying to deliver what it holds before leaving it on disk. */
  finalFlushMs: 5_000,
} as const;
/** Where the last config is kept (secrets included, mode 0600), so a restart while the server is away keeps probing. */
export const CONFIG_CACHE_FILE = 'config.json';

export interface RelayAgentOptions {
  url: string;
  token: string;
  dataDir: string;
  logger: Logger;
  fetch?: typeof fetch;
  concurrency?: number;
  submitEveryMs?: number;
  configEveryMs?: number;
  batchSize?: number;
  finalFlushMs?: number;
  backoff?: BackoffOptions;
  queue?: { maxResults?: number; maxBytes?: number };
  probeFor?: (type: string) => ProbeDefinition | undefined;
}

export interface AgentStats {
  /** Results the probes produced (and the queue took). */
  produced: number;
  /** Results the server accepted, duplicates included. */
  delivered: number;
  /** Accepted results the server already had (a batch resent after a lost answer). */
  duplicates: number;
  /** Results the server refused (not assigned, malformed, too old); they are not retried. */
  rejected: number;
  /** Results dropped because the queue was full. */
  dropped: number;
  /** Results still held on disk. */
  pending: number;
}

export interface RelayAgent {
  stats(): AgentStats;
  /** Stops probing, tries to deliver what it holds (for finalFlushMs at most) and closes the queue. */
  stop(): Promise<AgentStats>;
}

export async function startRelayAgent(options: RelayAgentOptions): Promise<RelayAgent> {
  const log = options.logger;
  const submitEveryMs = options.submitEveryMs ?? AGENT_DEFAULTS.submitEveryMs;
  const configEveryMs = options.configEveryMs ?? AGENT_DEFAULTS.configEveryMs;
  const backoff = options.backoff ?? BACKOFF_DEFAULTS;
  const batchSize = Math.min(options.batchSize ?? AGENT_DEFAULTS.batchSize, RELAY_LIMITS.resultsPerBatch);
  const client: RelayClient = createRelayClient({
    url: options.url,
    token: options.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const queue: ResultQueue = await openResultQueue({ dir: options.dataDir, logger: log, ...options.queue });
  const counts = { produced: 0, delivered: 0, duplicates: 0, rejected: 0 };
  const stopping = new AbortController();

  const schedule = relaySchedule(options, async (monitor, result, checkedAt) => {
    await queue.append([{ id: newResultId(), monitorId: monitor.id, checkedAt, ...result }]);
    counts.produced++;
  });

  let etag: string | null = null;
  const cached = await readCachedConfig(options.dataDir);
  /** Whether a config has been run: the first one spreads its first runs, later ones check what they add or change at once. */
  let configured = cached !== null;
  if (cached) {
    etag = cached.etag;
    schedule.update(cached.config.monitors);
  }
  log.info(
    {
      url: options.url,
      dataDir: options.dataDir,
      queued: queue.size(),
      monitors: schedule.size(),
      cachedConfig: cached !== null,
    },
    `relay agent started; ${queue.size()} results waiting on disk`,
  );

  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => {});

  async function pollConfig(): Promise<void> {
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        const poll = await client.getConfig(etag, stopping.signal);
        if (poll.kind === 'changed') {
          // A monitor added or changed since the config this agent already ran is checked at once; a first config spreads.
          const immediate = configured;
          schedule.update(poll.config.monitors, { immediate: () => immediate });
          configured = true;
          etag = poll.etag;
          await writeCachedConfig(options.dataDir, poll.config, poll.etag);
          log.info(
            { relay: poll.config.relay.key, monitors: poll.config.monitors.length },
            `config loaded: ${counted(poll.config.monitors.length, 'monitor')}`,
          );
        }
        if (failures > 0) log.info('config reachable again');
        failures = 0;
        await pause(configEveryMs);
      } catch (error) {
        if (stopping.signal.aborted) break;
        failures++;
        // Without any config there is nothing to probe: retry sooner, with backoff.
        const retryInMs = schedule.size() === 0 && !etag ? backoffDelay(failures, backoff) : configEveryMs;
        logRequestFailure(log, 'config', error, { attempt: failures, queued: queue.size(), retryInMs });
        await pause(retryInMs);
      }
    }
  }

  const delivery = createDelivery({ client, queue, log, backoff, counts, batchSize });

  async function submitLoop(): Promise<void> {
    while (!stopping.signal.aborted) {
      const batch = delivery.nextBatch();
      if (batch.lines.length === 0) {
        await pause(submitEveryMs);
        continue;
      }
      const outcome = await delivery.deliver(batch, { signal: stopping.signal });
      if (outcome === 'failed') await pause(delivery.retryInMs());
      // A backlog (replay after an outage) goes out batch after batch; otherwise results gather for a while.
      else if (outcome === 'delivered' && queue.size() < delivery.batchSize()) await pause(submitEveryMs);
    }
  }

  const loops = Promise.all([pollConfig(), submitLoop()]);
  let stopped: Promise<AgentStats> | null = null;

  const stats = (): AgentStats => ({ ...counts, dropped: queue.dropped(), pending: queue.size() });
  return {
    stats,
    stop() {
      stopped ??= (async () => {
        log.info({ queued: queue.size() }, 'stopping: finishing running checks, then delivering what is held');
        stopping.abort();
        await schedule.stop();
        await loops;
        await finalFlush(delivery, queue, options.finalFlushMs ?? AGENT_DEFAULTS.finalFlushMs);
        await queue.close();
        const final = stats();
        log.info(
          final,
          final.pending > 0
            ? `relay agent stopped; ${final.pending} results stay on disk for the next start`
            : 'relay agent stopped; nothing left to deliver',
        );
        return final;
      })();
      return stopped;
    },
  };
}

/** The monitors' schedule on a relay: every target allowed, none probed while its secrets are withheld. */
function relaySchedule(
  options: RelayAgentOptions,
  onResult: ProbeScheduleDeps<RelayMonitor>['onResult'],
): ProbeSchedule<RelayMonitor> {
  const probeFor = options.probeFor;
  return createProbeSchedule<RelayMonitor>({
    logger: options.logger,
    concurrency: options.concurrency ?? DEFAULT_RELAY_CONCURRENCY,
    // Relays are never restricted: reaching the private network they sit in is what they are for.
    guardFor: () => ANY_TARGET,
    ...(probeFor ? { probeFor: (monitor: RelayMonitor) => probeFor(monitor.type) } : {}),
    // Its secrets were withheld (the token was rotated through the API): probing without them would only mislead.
    unprobeable: (monitor) =>
      monitor.secretsWithheld?.length ? { ok: false, error: SECRETS_WITHHELD_ERROR } : undefined,
    onResult,
  });
}

/** On stop: delivers what the queue holds, batch after batch, until it is empty, a delivery fails or `withinMs` ends. */
async function finalFlush(delivery: Deliverer, queue: ResultQueue, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (queue.size() > 0 && Date.now() < deadline) {
    const outcome = await delivery.deliver(delivery.nextBatch(), { timeoutMs: Math.max(1, deadline - Date.now()) });
    if (outcome === 'failed') break;
  }
}

async function readCachedConfig(dir: string): Promise<{ config: RelayConfig; etag: string | null } | null> {
  try {
    const saved = JSON.parse(await readFile(join(dir, CONFIG_CACHE_FILE), 'utf8')) as {
      config?: unknown;
      etag?: unknown;
    };
    const config = relayConfigSchema.safeParse(saved.config);
    return config.success ? { config: config.data, etag: typeof saved.etag === 'string' ? saved.etag : null } : null;
  } catch {
    return null;
  }
}

async function writeCachedConfig(dir: string, config: RelayConfig, etag: string | null): Promise<void> {
  const file = join(dir, CONFIG_CACHE_FILE);
  await writeFile(`${file}.tmp`, JSON.stringify({ etag, config }), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

/** Checks running at once on a relay. */
export const DEFAULT_RELAY_CONCURRENCY = 64;

/** 96 random bits: unique per monitor for as long as the server keeps checks. */
function newResultId(): string {
  return randomBytes(12).toString('base64url');
}
