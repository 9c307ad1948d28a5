// The API's view of a relay: never its token, only the token's visible start.
import { z } from 'zod';
import type { Relay } from '../../domain/organization.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import { pick } from '../view-fields.js';

export const relayViewSchema = z.object({
  id: z.string(),
  key: z.string().describe('Monitors name their relay by this key.'),
  name: z.string(),
  tokenPrefix: z.string().nullable().describe('The visible start of the current token; null when none was issued.'),
  lastSeenAt: z.number().int().nullable().describe('When the relay last called Warden (epoch ms).'),
  dependsOn: z
    .string()
    .nullable()
    .describe("Key of the monitor the relay's monitors depend on unless they name their own (null: none)."),
  ...ownershipFields(),
});

export type RelayView = z.infer<typeof relayViewSchema>;

export function relayView(relay: Relay): RelayView {
  return { ...pick(relay, ['id', 'key', 'name', 'tokenPrefix', 'lastSeenAt', 'dependsOn']), ...ownershipOf(relay) };
}
