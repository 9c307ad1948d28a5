// Push heartbeats: GET/POST /api/push/{token}.
import type { App } from '../../app.js';

export function pushRoutes(_app: App): void {}
