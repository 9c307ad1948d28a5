// Push heartbeats: GET/POST /api/push/{token}, CORS-enabled so a browser or a game plugin can ping.
import { cors } from 'hono/cors';
import type { App } from '../../app.js';
import { getPush } from './get-push.js';
import { postPush } from './post-push.js';

export function pushRoutes(app: App): void {
  app.use('/api/push/*', cors({ origin: '*', allowMethods: ['GET', 'POST'], allowHeaders: ['content-type'], maxAge: 86_400 }));
  getPush(app);
  postPush(app);
}
