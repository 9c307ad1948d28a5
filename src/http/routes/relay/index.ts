// The relay protocol: GET /api/relay/config and POST /api/relay/results, both with a Bearer relay token (wdr_…).
import type { App } from '../../env.js';
import { getConfig } from './get-config.js';
import { postResults } from './post-results.js';

export function relayRoutes(app: App): void {
  getConfig(app);
  postResults(app);
}
