// Public status pages: /api/v1/status/{slug} and every form under /s/{slug}.
import type { App } from '../../app.js';

export function statusRoutes(_app: App): void {}
