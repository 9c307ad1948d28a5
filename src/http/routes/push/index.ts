// Push heartbeats: GET/POST /api/push/{token}, CORS-enabled so a browser or a game plugin can ping.

import { pushCors } from '../../cors.js';
import type { App } from '../../env.js';
import { getPush } from './get-push.js';
import { postPush } from './post-push.js';

export function pushRoutes(app: App): void {
  app.use('/api/push/*', pushCors);
  getPush(app);
  postPush(app);
}
