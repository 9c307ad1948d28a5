// The relay protocol: GET /api/relay/config and POST /api/relay/results, both with a Bearer relay token (wdr_…).
import type { App } from '../../env.js';
import { getConfig } from './get-config.js';
import type { RelayDeps } from './post-results.js';
import { postResults } from './post-results.js';

/** `relays`: what a relay's config is read and its results recorded with. */
export function relayRoutes(app: App, relays: RelayDeps): void {
  getConfig(app, relays);
  postResults(app, relays);
}
