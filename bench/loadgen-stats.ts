// What the players of `npm run bench loadgen` count: requests per kind with their answers' times, results offered and stored.

export type Kind = 'relay' | 'push' | 'page' | 'config';

/** Counters of one kind of request: sent, answered 2xx, failed (non-2xx or no answer), and when each answer came and took. */
export class Tally {
  sent = 0;
  ok = 0;
  failed = 0;
  readonly statuses: Record<string, number> = {};
  private readonly at: number[] = [];
  private readonly ms: number[] = [];

  record(status: string, ms: number): void {
    if (status.startsWith('2') || status === '304') this.ok++;
    else {
      this.failed++;
      this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    }
    this.at.push(Date.now());
    this.ms.push(ms);
  }

  counts(): TallyCounts {
    return { sent: this.sent, ok: this.ok, failed: this.failed, statuses: { ...this.statuses } };
  }

  /** p50 and p99 (ms) of the requests answered within [from, to). */
  latency(from: number, to: number): { p50: number; p99: number; n: number } {
    const sorted = this.ms
      .filter((_, i) => (this.at[i] as number) >= from && (this.at[i] as number) < to)
      .sort((a, b) => a - b);
    const pick = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
    return { p50: pick(0.5), p99: pick(0.99), n: sorted.length };
  }
}

export interface TallyCounts {
  sent: number;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
}

/** What the players did since they started: per kind of request, and results offered and acknowledged as stored. */
export class Stats {
  readonly requests: Record<Kind, Tally> = {
    relay: new Tally(),
    push: new Tally(),
    page: new Tally(),
    config: new Tally(),
  };
  /** Results due (relay) or pings due (push). */
  readonly offered = { relay: 0, push: 0 };
  /** Stored by an answer: a relay answer's accepted less its duplicates, a heartbeat's 200. */
  readonly stored = { relay: 0, push: 0 };
  /** Sent but never answered (timed out, connection lost): the server may have stored them without telling. */
  readonly unanswered = { relay: 0, push: 0 };
  rejected = 0;
  duplicates = 0;
  /** Results due but never sent: pings while too many waited for an answer, relay results left when the players stopped. */
  skipped = 0;

  counts(): StatsCounts {
    const requests = Object.fromEntries(
      Object.entries(this.requests).map(([kind, tally]) => [kind, tally.counts()]),
    ) as Record<Kind, TallyCounts>;
    const { rejected, duplicates, skipped } = this;
    const { offered, stored, unanswered } = this;
    return {
      requests,
      offered: { ...offered },
      stored: { ...stored },
      unanswered: { ...unanswered },
      rejected,
      duplicates,
      skipped,
    };
  }
}

export interface StatsCounts {
  requests: Record<Kind, TallyCounts>;
  offered: { relay: number; push: number };
  stored: { relay: number; push: number };
  unanswered: { relay: number; push: number };
  rejected: number;
  duplicates: number;
  skipped: number;
}
