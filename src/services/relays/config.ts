// The config a relay polls: its identity and its monitors (secrets included, unless withheld), with an ETag so an
// unchanged one costs a 304.

import { etagOf } from '../../domain/etag.js';
import type { Relay } from '../../domain/organization.js';
import { RELAY_LIMITS, type RelayConfig, type RelayMonitor } from '../../relay/protocol.js';
import type { ServiceContext } from '../context.js';
import { withheldSecrets, withoutFields } from './secrets.js';

export interface RelayConfigDocument {
  config: RelayConfig;
  /** The JSON sent, serialized once: the ETag is its hash. */
  body: string;
  etag: string;
}

/**
 * A monitor whose secrets are withheld (the token was rotated through the API after they were set) comes without
 * them and names them in `secretsWithheld`; the agent reports it failed instead of probing. Once they are written in
 * full again the body, and so the ETag, changes.
 */
export async function relayConfig(ctx: ServiceContext, { relay }: { relay: Relay }): Promise<RelayConfigDocument> {
  const monitors = await ctx.store.schedule.listRunningOnRelay(relay.id);
  const config: RelayConfig = {
    relay: { id: relay.id, key: relay.key, name: relay.name },
    monitors: monitors.map((m) => {
      const withheld = withheldSecrets(m, relay);
      const monitor: RelayMonitor = {
        id: m.id,
        key: m.key,
        name: m.name,
        type: m.type,
        config: withheld.length > 0 ? withoutFields(m.config, withheld) : m.config,
        intervalSec: m.intervalSec,
        timeoutMs: m.timeoutMs,
      };
      if (withheld.length > 0) monitor.secretsWithheld = withheld;
      return monitor;
    }),
    limits: {
      resultsPerBatch: RELAY_LIMITS.resultsPerBatch,
      batchBytes: RELAY_LIMITS.batchBytes,
      configPollSec: RELAY_LIMITS.configPollSec,
    },
  };
  const body = JSON.stringify(config);
  const etag = etagOf(body);
  return { config, body, etag };
}
