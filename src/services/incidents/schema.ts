// Inputs of the incident verbs, built from the same fields as warden.yaml's incidents.
import { z } from 'zod';
import { queryIntIn, reference, stableKey } from '../../domain/fields.js';
import { incidentFields } from '../../domain/incident.js';
import { LIMITS } from '../../domain/limits.js';
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
    status: incidentFields.status.describe(
      'resolved closes the incident; any other status on a resolved incident reopens it.',
    ),
    message: incidentFields.message,
    impact: incidentFields.impact.optional(),
    components: incidentFields.components.optional().describe('Replaces the affected components.'),
  })
  .strict();

/** An incident as warden.yaml declares it: its whole timeline. */
export const incidentEntrySchema = z
  .object({
    key: stableKey(),
    title: incidentFields.title,
    status: incidentFields.status.default('investigating'),
    impact: incidentFields.impact.default('minor'),
    startedAt: incidentFields.startedAt,
    resolvedAt: incidentFields.resolvedAt.optional(),
    components: incidentFields.components.default([]),
    updates: z
      .array(
        z
          .object({ at: incidentFields.startedAt, status: incidentFields.status, message: incidentFields.message })
          .strict(),
      )
      .max(LIMITS.updatesPerIncident)
      .default([]),
  })
  .strict();

export const incidentListQuerySchema = z.object({
  limit: queryIntIn(1, API_LIMITS.incidentList.max)
    .default(API_LIMITS.incidentList.default)
    .describe('How many incidents, newest first.'),
});

const onPage = { slug: reference() };
const one = { slug: reference(), id: reference() };

export const incidentListInput = incidentListQuerySchema.extend(onPage);
export const incidentRefInput = z.object(one);
export const incidentCreateInput = incidentCreateSchema.extend(onPage);
export const incidentEntryInput = incidentEntrySchema.extend(onPage);
export const incidentPatchInput = incidentPatchSchema.extend(one);
/** Updates are posted to an incident by id alone. */
export const incidentUpdateInput = incidentUpdateCreateSchema.extend({ id: reference() });
