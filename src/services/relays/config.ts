// The config a relay polls: its identity and its monitors (secrets included), with an ETag so an unchanged one costs a 304.
import { createHash } from 'node:crypto';
import { RELAY_LIMITS, type RelayConfig } from '../../relay/wire.js';
import type { Db } from '../../store/connect.js';
import { listRelayMonitors } from '../../store/relay-assignments.js';
import type { Relay } from '../../store/relays.js';

export interface RelayConfigDocument {
  config: RelayConfig;
  /** The JSON sent, serialized once: the ETag is its hash. */
  body: string;
  etag: string;
}

export async function relayConfig(db: Db, relay: Relay): Promise<RelayConfigDocument> {
  const monitors = await listRelayMonitors(db, relay.id);
  const config: RelayConfig = {
    relay: { id: relay.id, key: relay.key, name: relay.name },
    monitors: monitors.map((m) => ({
      id: m.id,
      key: m.key,
      name: m.name,
      type: m.type,
      config: m.config,
      intervalSec: m.intervalSec,
      timeoutMs: m.timeoutMs,
    })),
    limits: { resultsPerBatch: RELAY_LIMITS.resultsPerBatch, batchBytes: RELAY_LIMITS.batchBytes, configPollSec: RELAY_LIMITS.configPollSec },
  };
  const body = JSON.stringify(config);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { config, body, etag };
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
