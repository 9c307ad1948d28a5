// Request bodies of the relay API, built from the same fields as warden.yaml's relays.
import { z } from 'zod';
import { stableKey, text } from '../../config/file-schema.js';

export const relayCreateSchema = z.object({ key: stableKey(), name: text(200) }).strict();

/** The key stays (monitors name their relay by it). */
export const relayPatchSchema = z.object({ name: text(200).optional() }).strict();

export type RelayCreateInput = z.output<typeof relayCreateSchema>;
export type RelayPatchInput = z.output<typeof relayPatchSchema>;
