// Push heartbeats: GET/POST /api/push/{token}, CORS-enabled so a browser or a game plugin can ping.

import type { PushContext } from '../../../services/push/record.js';
import { pushCors } from '../../cors.js';
import type { App } from '../../env.js';
import { getPush } from './get-push.js';
import { postPush } from './post-push.js';

/** `push`: what a heartbeat is recorded with (ingest, the push-token cache, the rate limiter the fast path shares). */
export function pushRoutes(app: App, push: PushContext): void {
  app.use('/api/push/*', pushCors);
  getPush(app, push);
  postPush(app, push);
}
