// `npm run gen:api` (after schema.d.ts): writes web/src/api/live-schema.d.ts, the types of the organization live
// stream's messages, from the zod schemas the server sends them by (src/services/live/organization-messages.ts): zod's
// JSON Schema export, as an OpenAPI document's schemas, through openapi-typescript like schema.d.ts.
// test/dashboard-live-types.test.ts fails while the committed file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { z } from 'zod';
import {
  liveMonitorSchema,
  organizationLiveMessageSchema,
  organizationMonitorMessageSchema,
  organizationSnapshotMessageSchema,
} from '../../src/services/live/organization-messages.js';

export const LIVE_TYPES_FILE = fileURLToPath(new URL('../src/api/live-schema.d.ts', import.meta.url));

const HEADER =
  '// Generated from src/services/live/organization-messages.ts (zod → JSON Schema → openapi-typescript); do not edit.\n' +
  '// Regenerate: npm run gen:api\n/* biome-ignore-all lint: generated */\n';

/** The text of live-schema.d.ts: `components['schemas']` holds LiveMonitor, LiveSnapshotMessage, LiveMonitorMessage and LiveMessage. */
export async function liveTypesSource(): Promise<string> {
  const registry = z.registry<{ id: string }>();
  registry.add(liveMonitorSchema, { id: 'LiveMonitor' });
  registry.add(organizationSnapshotMessageSchema, { id: 'LiveSnapshotMessage' });
  registry.add(organizationMonitorMessageSchema, { id: 'LiveMonitorMessage' });
  registry.add(organizationLiveMessageSchema, { id: 'LiveMessage' });
  // What the server sends (io: output), each schema referring to the others by their id.
  const { schemas } = z.toJSONSchema(registry, { io: 'output', uri: (id) => `#/components/schemas/${id}` });
  const document = {
    openapi: '3.1.0',
    info: { title: 'Warden organization live stream', version: '1' },
    paths: {},
    components: { schemas },
  };
  return HEADER + astToString(await openapiTS(document as never));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(LIVE_TYPES_FILE, await liveTypesSource());
  console.log(`wrote ${LIVE_TYPES_FILE}`);
}
