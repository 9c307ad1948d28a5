// The server's parts with the HTTP app built at once: what tests and benches drive through app.request(), as the
// server's own requests would reach it (the server itself builds the app on first use, see startWarden).
import { createApp } from './http/app.js';
import { type ComposeOptions, composeServices } from './main.js';

export function composeWarden(options: ComposeOptions) {
  const parts = composeServices(options);
  return { ...parts, app: createApp(parts.appDeps) };
}

export type WardenParts = ReturnType<typeof composeWarden>;
