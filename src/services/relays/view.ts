// The API's view of a relay: never its token, only the token's visible start.
import { z } from 'zod';
import type { Relay } from '../../domain/organization.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';

export const relayViewSchema = z.object({
  id: z.string(),
  key: z.string().describe('Monitors name their relay by this key.'),
  name: z.string(),
  tokenPrefix: z.string().nullable().describe('The visible start of the current token; null when none was issued.'),
  lastSeenAt: z.number().int().nullable().describe('When the relay last called Warden (epoch ms).'),
  ...ownershipFields(),
});

export type RelayView = z.infer<typeof relayViewSchema>;

export function relayView(relay: Relay): RelayView {
  return {
    id: relay.id,
    key: relay.key,
    name: relay.name,
    tokenPrefix: relay.tokenPrefix,
    lastSeenAt: relay.lastSeenAt,
    ...ownershipOf(relay),
  };
}
