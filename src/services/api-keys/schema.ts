// Request body of the API key API.
import { z } from 'zod';
import { text } from '../../config/file-schema.js';
import { API_KEY_SCOPES } from './view.js';

export const apiKeyCreateSchema = z
  .object({
    name: text(200).describe('What the key is for.'),
    scope: z.enum(API_KEY_SCOPES).default('read'),
  })
  .strict();

export type ApiKeyCreateInput = z.output<typeof apiKeyCreateSchema>;
