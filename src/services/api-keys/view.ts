// The API's view of an API key: its display prefix and use, never the key itself.
import { z } from 'zod';
import { API_KEY_SCOPES, type ApiKey } from '../../domain/organization.js';
import { pick } from '../view-fields.js';

export const apiKeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The visible start of the key, e.g. wdn_Ab12Cd34.'),
  scope: z.enum(API_KEY_SCOPES).describe('read: GET routes only; write: every route.'),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable().describe('Last authenticated request (recorded at most once a minute).'),
  revokedAt: z.number().int().nullable(),
  createdBy: z
    .string()
    .nullable()
    .describe(
      "The user whose authority made it (for a key made with another key, that key's maker): removing that member, or lowering their role below the key's, revokes it. Null: made by the operator's CLI, or before Warden recorded it.",
    ),
});

export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

export function apiKeyView(key: ApiKey): ApiKeyView {
  return pick(key, ['id', 'name', 'prefix', 'scope', 'createdAt', 'lastUsedAt', 'revokedAt', 'createdBy']);
}
