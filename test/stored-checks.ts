// Every check a store holds, over all its monitors, read through the repositories a page at a time (tests and benchmarks).
import type { StoredCheck } from '../src/domain/check.js';
import type { Store } from '../src/store/index.js';

/** Checks read per query: bounds the memory a count over a benchmark's whole history takes. */
const PAGE = 5000;

/** All stored checks, each monitor's newest first. */
export async function listStoredChecks(store: Store): Promise<StoredCheck[]> {
  const all: StoredCheck[] = [];
  for await (const page of pages(store)) all.push(...page);
  return all;
}

export async function countStoredChecks(store: Store): Promise<number> {
  let total = 0;
  for await (const page of pages(store)) total += page.length;
  return total;
}

async function* pages(store: Store): AsyncGenerator<StoredCheck[]> {
  for (const monitorId of await store.monitors.listIds()) {
    let before: { checkedAt: number; id: number } | undefined;
    for (;;) {
      const page = await store.checks.list(monitorId, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: PAGE, before });
      yield page;
      const last = page.at(-1);
      if (page.length < PAGE || !last) break;
      before = { checkedAt: last.checkedAt, id: last.id };
    }
  }
}
