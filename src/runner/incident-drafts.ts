// The draft incidents' timer: every 30 s, one scan (services/incidents/draft-scan.ts, handed in by the composition
// root): components down long enough get their draft, drafts of recovered ones are discarded. Every process scans; a
// spell's unique key drafts (or publishes) it once.
import type { DraftScanOutcome } from '../domain/incident-draft.js';
import { createTimer, type PeriodicSweep, type TimerDeps } from './periodic.js';

export const INCIDENT_DRAFTS_EVERY_MS = 30_000;

/** sweep() is one scan; it returns how many drafts it prepared, published and discarded. */
export type IncidentDrafts = PeriodicSweep<DraftScanOutcome>;

export function createIncidentDrafts(deps: TimerDeps & { scan: () => Promise<DraftScanOutcome> }): IncidentDrafts {
  return createTimer(deps.scan, deps, { everyMs: INCIDENT_DRAFTS_EVERY_MS, failure: 'draft incidents failed' });
}
