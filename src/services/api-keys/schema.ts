// Inputs of the API key verbs.
import { z } from 'zod';
import { reference, text } from '../../domain/fields.js';
import { API_KEY_SCOPES } from '../../domain/organization.js';

export const apiKeyCreateSchema = z
  .object({
    name: text(200).describe('What the key is for.'),
    scope: z.enum(API_KEY_SCOPES).default('read'),
  })
  .strict();

export const apiKeyIdSchema = z.object({ id: reference() });
