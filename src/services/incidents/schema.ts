// Request bodies of the incident API, built from the same fields as warden.yaml's incidents.
import { z } from 'zod';
import { incidentFields } from '../../config/file-schema.js';
import { API_LIMITS } from '../api-limits.js';

export const incidentCreateSchema = z
  .object({
    key: incidentFields.key.optional(),
    title: incidentFields.title,
    status: incidentFields.status.default('investigating'),
    impact: incidentFields.impact.default('minor'),
    message: incidentFields.message.describe('The first entry of the timeline.'),
    components: incidentFields.components.default([]),
    startedAt: incidentFields.startedAt.optional().describe('Defaults to now.'),
  })
  .strict();

/** The incident's own fields; its status moves through updates (POST /api/v1/incidents/{id}/updates). */
export const incidentPatchSchema = z
  .object({
    title: incidentFields.title.optional(),
    impact: incidentFields.impact.optional(),
    components: incidentFields.components.optional(),
    startedAt: incidentFields.startedAt.optional(),
  })
  .strict();

export const incidentUpdateCreateSchema = z
  .object({
    status: incidentFields.status.describe('resolved closes the incident; any other status on a resolved incident reopens it.'),
    message: incidentFields.message,
    impact: incidentFields.impact.optional(),
    components: incidentFields.components.optional().describe('Replaces the affected components.'),
  })
  .strict();

const limitMessage = `expected an integer from 1 to ${API_LIMITS.incidentList.max}`;

export const incidentListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: limitMessage })
    .int({ error: limitMessage })
    .min(1, { error: limitMessage })
    .max(API_LIMITS.incidentList.max, { error: limitMessage })
    .default(API_LIMITS.incidentList.default)
    .describe('How many incidents, newest first.'),
});

export type IncidentCreateInput = z.output<typeof incidentCreateSchema>;
export type IncidentPatchInput = z.output<typeof incidentPatchSchema>;
export type IncidentUpdateInput = z.output<typeof incidentUpdateCreateSchema>;
