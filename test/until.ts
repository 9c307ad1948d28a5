// Waiting in tests on real time: a sleep, and polling until something holds or a deadline passes.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it returns something truthy (returned), or fails naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * A webhook that has `count` requests, an outbox with nothing left to send, and then `quietMs` in which nothing else
 * arrives: what the cluster tests wait for before they say what a channel got, and only got.
 */
export async function settledAt(
  received: () => number,
  deliveries: () => Promise<readonly { status: string }[]>,
  count: number,
  quietMs: number,
): Promise<void> {
  await until(`${count} requests at the webhook`, () => received() >= count, 30_000, 100);
  await until(
    'nothing left to send',
    async () => (await deliveries()).every((d) => d.status !== 'pending' && d.status !== 'sending'),
    15_000,
    200,
  );
  await sleep(quietMs);
  if (received() !== count) throw new Error(`expected ${count} requests at the webhook, got ${received()}`);
}
