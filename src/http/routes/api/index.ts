// The organization API under /api/v1 (API keys): monitors, history, pages, components, incidents, maintenance, relays, keys.
import type { App } from '../../app.js';

export function apiRoutes(_app: App): void {}
