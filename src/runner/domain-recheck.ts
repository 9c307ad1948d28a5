// Looks up the verification record of every verified API custom domain again, daily: a record removed makes the domain
// unverified (it serves nothing until the verify call finds the record again). DNS not answering changes nothing.
import type { Bus } from '../bus/bus.js';
import { HOUR_MS } from '../domain/check.js';
import type { Clock } from '../domain/clock.js';
import {
  CUSTOM_DOMAIN_LIMITS,
  describeTxtAnswer,
  type TxtLookup,
  verificationOutcome,
  verificationRecordName,
} from '../domain/custom-domain.js';
import type { Page } from '../domain/page.js';
import { type Logger, logFailure } from '../logger.js';
import type { Store } from '../store/index.js';
import type { SweepGate } from './periodic.js';

export interface DomainRecheck {
  /** Checks every verified API domain last checked `everyMs` ago or more. */
  recheck(): Promise<{ checked: number; unverified: number }>;
  start(): void;
  stop(): Promise<void>;
}

export function createDomainRecheck(deps: {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  domainTxt: TxtLookup;
  /** How old a check may get; CUSTOM_DOMAIN_LIMITS.recheckEveryMs (a day) by default. */
  everyMs?: number | undefined;
  /** Cluster mode: re-checks only while this instance holds the domain re-check's lease. */
  gate?: SweepGate | undefined;
}): DomainRecheck {
  const everyMs = deps.everyMs ?? CUSTOM_DOMAIN_LIMITS.recheckEveryMs;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  const due = (page: Page, now: number): boolean =>
    page.customDomain !== null &&
    page.customDomainToken !== null &&
    page.customDomainVerifiedAt !== null &&
    (page.customDomainCheckedAt ?? 0) <= now - everyMs;

  async function checkOne(page: Page): Promise<'kept' | 'unverified' | 'skipped'> {
    const claim = { domain: page.customDomain as string, token: page.customDomainToken as string };
    const name = verificationRecordName(claim.domain);
    const answer = await deps.domainTxt(name);
    const outcome = verificationOutcome(answer, claim.token);
    if (outcome === 'unreachable') {
      deps.logger.warn(
        { page: page.slug, domain: claim.domain, found: describeTxtAnswer(name, answer) },
        'custom domain re-check: DNS did not answer; kept as it is',
      );
      return 'skipped';
    }
    const now = deps.clock.now();
    if (outcome === 'verified') {
      await deps.store.pages.recordDomainCheck(page.id, claim, page.customDomainVerifiedAt, now);
      return 'kept';
    }
    const lost = await deps.store.transaction(async (tx) => {
      if (!(await tx.pages.recordDomainCheck(page.id, claim, null, now))) return false;
      await tx.changes.bump();
      return true;
    });
    if (!lost) return 'skipped';
    deps.bus.publish({ type: 'page.changed', at: now, pageId: page.id });
    deps.logger.warn(
      { page: page.slug, domain: claim.domain, found: describeTxtAnswer(name, answer) },
      'custom domain lost its verification record: it serves nothing until verified again',
    );
    return 'unverified';
  }

  async function recheck(): Promise<{ checked: number; unverified: number }> {
    const now = deps.clock.now();
    let checked = 0;
    let unverified = 0;
    for (const page of await deps.store.pages.list()) {
      if (stopped) break;
      if (!due(page, now)) continue;
      const outcome = await checkOne(page);
      if (outcome !== 'skipped') checked++;
      if (outcome === 'unverified') unverified++;
    }
    return { checked, unverified };
  }

  function runOnce(): void {
    if (deps.gate && !deps.gate()) return;
    running ??= recheck()
      .catch((error) => logFailure(deps.logger, error, 'custom domain re-check failed'))
      .finally(() => {
        running = null;
      });
  }

  return {
    recheck,
    start() {
      // Wakes hourly (or as often as checks fall due, in tests) and checks the domains whose last check is old enough.
      const tickMs = Math.min(everyMs, HOUR_MS);
      timer = setInterval(runOnce, tickMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
