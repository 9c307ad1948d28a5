// The relay protocol: GET /api/relay/config and POST /api/relay/results.
import type { App } from '../../app.js';

export function relayRoutes(_app: App): void {}
