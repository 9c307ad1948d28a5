// The server's parts with the HTTP app built at once: what tests and benches drive through app.request(), as the
// server's own requests would reach it (the server itself builds the app on first use, see startWarden).
// First, as in src/main.ts: it extends zod with .openapi(), before the modules below create their schemas.
import '@hono/zod-openapi';

import type { ComposeOptions } from './compose/options.js';
import { composeServices } from './compose/services.js';
import { createApp } from './http/app.js';

export function composeWarden(options: ComposeOptions) {
  const parts = composeServices(options);
  return { ...parts, app: createApp(parts.appDeps) };
}

export type WardenParts = ReturnType<typeof composeWarden>;
