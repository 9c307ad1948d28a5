// Certificates about to expire, or expired, told from the ingest commit: `tls.expiring` once a certificate is within a
// channel's `rules.tlsDays` (14 unless set) of its expiry, `tls.expired` once it expired (days left below zero, or a
// check refused with the expired-certificate error). One event id per (monitor, certificate, kind), so each certificate
// is told once per channel; a memo of what each monitor's certificate looked like spares the database on every check.
import { RULE_LIMITS } from '../../domain/limits.js';
import type { MonitorStateRow } from '../../domain/monitor.js';
import type { NotificationChannel } from '../../domain/notification.js';
import { tlsDays } from '../../domain/notification-rules.js';
import type { Store } from '../../store/index.js';
import { type CheckedResult, certificateFacts, certificateItem } from '../events/certificates.js';
import type { OutboxItem } from '../events/item.js';
import type { NotificationPublisher } from './outbox.js';

/** Monitors remembered at most; past it the memo starts over (the next checks only cost a read again). */
export const TLS_MEMO_MAX = 100_000;

/** A result that says something about a certificate not judged yet in this process. */
export interface TlsCandidate {
  monitorId: string;
  organizationId: string;
  checkedAt: number;
  /** The certificate's expiry (ISO 8601), or null when an expired one refused the check before it was seen anew. */
  validTo: string | null;
  /** Whole days left; null for a check refused with the expired-certificate error. */
  daysLeft: number | null;
  error: string | null;
  /** What the memo keeps for the monitor once the commit went through. */
  memo: string;
}

export interface TlsNotices {
  /** The batch's results worth judging, read before the batch moves the monitors (their last result is the one before). */
  candidatesOf(
    inputs: readonly (CheckedResult | { kind: 'silence'; monitorId: string })[],
    monitors: ReadonlyMap<string, MonitorStateRow>,
    now: number,
  ): TlsCandidate[];
  /** Publishes what they call for on `tx`; `remember` is called once the transaction committed. */
  publish(
    tx: Store,
    candidates: readonly TlsCandidate[],
    now: number,
  ): Promise<{ enqueued: number; remember: () => void }>;
}

export function createTlsNotices(notify: NotificationPublisher): TlsNotices {
  /** Per monitor, the certificate state last judged: a check that says the same again costs nothing. */
  const judged = new Map<string, string>();

  return {
    candidatesOf(inputs, monitors, now) {
      const out: TlsCandidate[] = [];
      for (const input of inputs) {
        if (input.kind === 'silence') continue;
        const monitor = monitors.get(input.monitorId);
        if (!monitor) continue;
        const facts = certificateFacts(input, monitor, judged.get(monitor.id));
        // Further from expiry than any channel asks: nothing to judge.
        if (!facts || (facts.daysLeft !== null && facts.daysLeft > RULE_LIMITS.tlsDays.max)) continue;
        const kind = facts.daysLeft === null || facts.daysLeft < 0 ? 'expired' : String(facts.daysLeft);
        // An expired certificate is judged once; one about to expire once a day (channels' thresholds differ).
        const memo = `${facts.validTo ?? ''}\u0000${kind}`;
        if (judged.get(monitor.id) === memo || out.some((c) => c.monitorId === monitor.id && c.memo === memo)) continue;
        out.push({
          monitorId: monitor.id,
          organizationId: monitor.organizationId,
          checkedAt: input.checkedAt ?? now,
          ...facts,
          error: input.error ?? null,
          memo,
        });
      }
      return out;
    },

    async publish(tx, candidates, now) {
      const remember = () => {
        if (judged.size > TLS_MEMO_MAX) judged.clear();
        for (const c of candidates) judged.set(c.monitorId, c.memo);
      };
      const channels = new Map<string, NotificationChannel[]>();
      for (const c of candidates)
        if (!channels.has(c.organizationId))
          channels.set(c.organizationId, await tx.channels.listEnabled(c.organizationId));
      const wanted = candidates.flatMap((c) => {
        const only = (channels.get(c.organizationId) ?? []).filter(
          (ch) => c.daysLeft === null || c.daysLeft < 0 || c.daysLeft <= tlsDays(ch.rules),
        );
        return only.length > 0 ? [{ candidate: c, only: only.map((ch) => ch.id) }] : [];
      });
      if (wanted.length === 0) return { enqueued: 0, remember };
      const monitors = new Map(
        (await tx.monitors.findByIds([...new Set(wanted.map((w) => w.candidate.monitorId))])).map((m) => [m.id, m]),
      );
      const items: OutboxItem[] = [];
      for (const { candidate: c, only } of wanted) {
        const monitor = monitors.get(c.monitorId);
        if (!monitor) continue;
        items.push(certificateItem(monitor, c, only));
      }
      return { enqueued: items.length > 0 ? await notify.publish(tx, items, now) : 0, remember };
    },
  };
}
