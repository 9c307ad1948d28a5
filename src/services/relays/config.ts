// The config a relay polls: its identity and its monitors (secrets included), with an ETag so an unchanged one costs a 304.

import { etagOf } from '../../domain/etag.js';
import type { Relay } from '../../domain/organization.js';
import { RELAY_LIMITS, type RelayConfig } from '../../relay/protocol.js';
import type { ServiceContext } from '../context.js';

export interface RelayConfigDocument {
  config: RelayConfig;
  /** The JSON sent, serialized once: the ETag is its hash. */
  body: string;
  etag: string;
}

export async function relayConfig(ctx: ServiceContext, { relay }: { relay: Relay }): Promise<RelayConfigDocument> {
  const monitors = await ctx.store.monitors.listRunningOnRelay(relay.id);
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
  const etag = etagOf(body);
  return { config, body, etag };
}
