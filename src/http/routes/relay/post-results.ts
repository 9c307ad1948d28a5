// POST /api/relay/results: a batch of probe results; each is accepted or rejected on its own, accepted ones once committed.
import { createRoute } from '@hono/zod-openapi';
import { DAY_MS } from '../../../domain/check.js';
import { ValidationError } from '../../../domain/errors.js';
import { formatIssuePath } from '../../../domain/issue-path.js';
import { JSON_MAX_DEPTH, tooDeepMessage, valueNestsDeeper } from '../../../domain/json-depth.js';
import {
  RELAY_LIMITS,
  resultsEnvelopeSchema,
  resultsRequestSchema,
  resultsResponseSchema,
} from '../../../relay/protocol.js';
import { submitRelayResults } from '../../../services/relays/submit-results.js';
import type { IngestContext } from '../../../services/runtime.js';
import type { App } from '../../env.js';
import { readJsonBody, tooLargeMessage, withBodyReadByHandler } from '../../middleware/json-body.js';
import { relayAuth } from '../../middleware/relay-auth.js';
import { jsonResponse, OVERLOADED_DESCRIPTION, problemResponse as problemDoc, security, TAGS } from '../../openapi.js';
import { problem, problemResponse } from '../../problem.js';

export const postResultsRoute = createRoute({
  method: 'post',
  path: '/api/relay/results',
  tags: [TAGS.relay.name],
  summary: 'Submit probe results',
  description: `At most ${RELAY_LIMITS.resultsPerBatch} results and ${RELAY_LIMITS.batchBytes} bytes per request. A result for a monitor not assigned to this relay, a malformed one, or one checked in the future or before the retention is rejected (and not stored) with its reason; the others are stored. Answers once they are durably stored.`,
  security: security.relayToken,
  middleware: [relayAuth()] as const,
  request: { body: { required: true, content: { 'application/json': { schema: resultsRequestSchema } } } },
  responses: {
    200: jsonResponse(resultsResponseSchema, 'Each result accepted or rejected.'),
    400: problemDoc(
      400,
      `The body is not JSON, or has no results array, or nests deeper than ${JSON_MAX_DEPTH} levels outside its results (a result nested deeper is rejected alone).`,
    ),
    401: problemDoc(401, 'Missing, unknown or revoked relay token.'),
    413: problemDoc(
      413,
      `More than ${RELAY_LIMITS.resultsPerBatch} results or ${RELAY_LIMITS.batchBytes} bytes: split the batch.`,
    ),
    503: problemDoc(503, OVERLOADED_DESCRIPTION),
  },
});

/** What results are recorded with, and how old they may be (WARDEN_CHECK_RETENTION_DAYS: older ones would be pruned at once). */
export interface RelayDeps extends IngestContext {
  checkRetentionDays?: number | undefined;
}

export function postResults(app: App, deps: RelayDeps): void {
  app.openapi(withBodyReadByHandler(app, postResultsRoute), async (c) => {
    // Read whatever its depth (JSON.parse does not recurse; the body is at most 1 MiB): each result is judged alone,
    // a result nested too deeply among them included.
    const body = await readJsonBody(c, RELAY_LIMITS.batchBytes, { maxDepth: Number.POSITIVE_INFINITY });
    if (body.kind === 'too-large') return tooLarge(c, tooLargeMessage(body.maxBytes));
    const envelope = resultsEnvelopeSchema.safeParse(body.kind === 'json' ? body.value : undefined);
    if (!envelope.success)
      throw new ValidationError(
        envelope.error.issues.map((i) => ({ path: formatIssuePath(['body', ...i.path]), message: i.message })),
      );
    const { results: _judgedOneByOne, ...rest } = body.kind === 'json' ? (body.value as Record<string, unknown>) : {};
    if (valueNestsDeeper(rest, JSON_MAX_DEPTH))
      throw new ValidationError([{ path: 'body', message: tooDeepMessage() }], 'The body is nested too deeply.');
    const { results } = envelope.data;
    if (results.length > RELAY_LIMITS.resultsPerBatch)
      return tooLarge(c, `${results.length} results in one batch; at most ${RELAY_LIMITS.resultsPerBatch}`);
    const maxAgeMs = deps.checkRetentionDays === undefined ? undefined : deps.checkRetentionDays * DAY_MS;
    return c.json(await submitRelayResults(deps, { relay: c.get('relay'), results, maxAgeMs }), 200, {
      'cache-control': 'no-store',
    });
  });
}

function tooLarge(c: Parameters<typeof problemResponse>[0], detail: string): never {
  return problemResponse(
    c,
    problem(413, 'too-large', 'Batch too large', `${detail}: split it into smaller batches.`),
  ) as never;
}
