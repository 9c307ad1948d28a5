// The scale bench's lateness from each process's /metrics (`warden_check_lateness_seconds`), read at the edges of the
// window's parts: steady before the kill -9, the failover and the join until the handed-over monitors have run once,
// steady again to the end. The histogram counts from a process's start; a part's share is the difference of two reads,
// and a process that started within the part (the one restarted) counts from zero.

export interface LatenessCounts {
  total: number;
  within1s: number;
  within100ms: number;
  commitMeanMs: number;
}

/** One process's lateness histogram and mean ingest commit, read from its /metrics. */
export async function latenessCounts(url: string, token: string): Promise<LatenessCounts> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const bucket = (le: string) =>
    Number(new RegExp(`warden_check_lateness_seconds_bucket\\{le="${le}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? 0);
  const commits = value('warden_ingest_commit_duration_seconds_count');
  return {
    total: bucket('\\+Inf'),
    within1s: bucket('1'),
    within100ms: bucket('0.1'),
    commitMeanMs: commits === 0 ? 0 : (value('warden_ingest_commit_duration_seconds_sum') / commits) * 1000,
  };
}

/** Every named process's counts at one moment; a process that is down is left out. */
export type Reading = Map<string, LatenessCounts>;

export async function readAll(urls: ReadonlyMap<string, string>, token: string): Promise<Reading> {
  const entries = await Promise.all(
    [...urls].map(async ([id, url]) => [id, await latenessCounts(url, token).catch(() => null)] as const),
  );
  return new Map(entries.filter((e): e is [string, LatenessCounts] => e[1] !== null));
}

export interface Share {
  total: number;
  within1s: number;
  within100ms: number;
}

/**
 * Checks started between two readings, summed over the processes of the later one. `restarted`: processes that
 * started after `from` was read (their counts start from zero); a process only in `from` (killed) is not counted: its
 * checks since `from` are lost with it.
 */
export function between(from: Reading, to: Reading, restarted: ReadonlySet<string> = new Set()): Share {
  const share = { total: 0, within1s: 0, within100ms: 0 };
  for (const [id, now] of to) {
    const before = restarted.has(id) ? undefined : from.get(id);
    share.total += now.total - (before?.total ?? 0);
    share.within1s += now.within1s - (before?.within1s ?? 0);
    share.within100ms += now.within100ms - (before?.within100ms ?? 0);
  }
  return share;
}

export const sum = (...shares: Share[]): Share =>
  shares.reduce(
    (a, b) => ({
      total: a.total + b.total,
      within1s: a.within1s + b.within1s,
      within100ms: a.within100ms + b.within100ms,
    }),
    { total: 0, within1s: 0, within100ms: 0 },
  );

/** "97.912% of 1,000,000 within 1 s (91.60% within 100 ms)". */
export function describeShare(share: Share): string {
  const pct = (n: number, digits: number) => (share.total === 0 ? '–' : ((n / share.total) * 100).toFixed(digits));
  return `${pct(share.within1s, 3)}% of ${share.total} within 1 s (${pct(share.within100ms, 2)}% within 100 ms)`;
}
