// What GET /api/v1/monitor-types and /api/v1/notification-channel-types share: JSON Schemas generated from the zod
// schemas the API validates with, and a catalogue built once per process on first use.
import { z } from 'zod';

/** A JSON Schema (2020-12) in an answer. */
export const jsonSchemaField = z.record(z.string(), z.unknown());

/**
 * The JSON Schema of what a request may send (`input`: defaults shown, fields with defaults optional); a transform or
 * refinement has no JSON Schema equivalent and is left to the server's answer rather than failing.
 */
export function requestJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** `build`, run on the first call only: the catalogue is the same for every call of the process. */
export function builtOnce<T>(build: () => T): () => Promise<T> {
  let built: T | undefined;
  return async () => {
    built ??= build();
    return built;
  };
}
