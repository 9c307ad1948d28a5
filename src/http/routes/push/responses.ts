// What both push operations share: the token path parameter, and their answers (200 once the check is committed, or a problem).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { IngestOverloadedError } from '../../../runner/ingest.js';
import { type PushAccepted, pushAcceptedSchema } from '../../../services/push/payload.js';
import type { RecordHeartbeatDeps } from '../../../services/push/record.js';
import type { AppDeps } from '../../app.js';
import { OVERLOADED_DESCRIPTION, overloadedResponse } from '../../ingest-overloaded.js';
import { jsonResponse, problemResponse, pushTokenParam } from '../../openapi.js';

/** A malformed token is not a 400 but an unknown one (404), like any token no monitor has. */
export const pushTokenParamSchema = z.object({ token: pushTokenParam });

export const pushResponses = {
  200: jsonResponse(pushAcceptedSchema, 'The heartbeat is durably stored.'),
  400: problemResponse(400, 'An invalid field (named in `errors[].path`), a body that is not JSON, or a body over 16 KiB. Nothing is stored.'),
  404: problemResponse(404, 'No enabled push monitor has this token (unknown, revoked, or the monitor is paused).'),
  503: problemResponse(503, OVERLOADED_DESCRIPTION),
};

/** What the push operations need from the app's parts. */
export type PushServices = (deps: AppDeps) => RecordHeartbeatDeps;

export const NO_STORE = { 'cache-control': 'no-store' } as const;

/** Runs the recording and answers 200, or 503 when the ingest queue is full; other errors go to the app's problem mapping. */
export async function answerPush(c: Context, record: () => Promise<PushAccepted>) {
  try {
    return c.json(await record(), 200, NO_STORE);
  } catch (error) {
    // The 503 is declared in pushResponses; its problem+json body is built outside the typed c.json().
    if (error instanceof IngestOverloadedError) return overloadedResponse(c) as never;
    throw error;
  }
}
