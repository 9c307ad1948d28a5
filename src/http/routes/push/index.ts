// Push heartbeats: GET/POST /api/push/{token}, CORS-enabled so a browser or a game plugin can ping.
import { cors } from 'hono/cors';
import { createPushTokenCache, type PushTokenCache } from '../../../services/push/token-cache.js';
import type { App } from '../../app.js';
import { getPush } from './get-push.js';
import { postPush } from './post-push.js';
import type { PushServices } from './responses.js';

export function pushRoutes(app: App): void {
  app.use('/api/push/*', cors({ origin: '*', allowMethods: ['GET', 'POST'], allowHeaders: ['content-type'], maxAge: 86_400 }));
  // One token cache per app, made on the first ping from the app's own store and bus.
  let tokens: PushTokenCache | undefined;
  const services: PushServices = (deps) => {
    tokens ??= createPushTokenCache({ db: deps.store.db, bus: deps.bus, clock: deps.clock });
    return { ingest: deps.ingest, clock: deps.clock, tokens };
  };
  getPush(app, services);
  postPush(app, services);
}
