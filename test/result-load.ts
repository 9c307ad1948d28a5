// Steady push and relay traffic against a real server, every answer kept: which pushes and relay results were
// acknowledged (a 200), and what the others got. Each push carries its own message and each relay result its own id,
// so a test can tell afterwards whether every acknowledged one is in the database.

export interface LoadAnswer {
  kind: 'push' | 'relay';
  /** When the request was sent and answered (ms, performance.now()). */
  sentAt: number;
  answeredAt: number;
  /** 0: no answer at all (the connection failed). */
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  /** The problem type of an error answer. */
  problem?: string | undefined;
}

export interface ResultLoad {
  answers: LoadAnswer[];
  /** The messages of the pushes answered 200, by push token. */
  ackedPushes: Map<string, Set<string>>;
  /** The ids of the relay results answered 200 and accepted; all sent ones. */
  ackedResults: Set<string>;
  sentResults: Set<string>;
  /** Resolves with the first answer of `kind` sent at or after `since` with this status (waiting for it up to `withinMs`). */
  first(kind: LoadAnswer['kind'], status: number, since: number, withinMs: number): Promise<LoadAnswer | undefined>;
  stop(): Promise<void>;
}

export interface LoadOptions {
  url: string;
  pushTokens: readonly string[];
  relayToken: string;
  relayMonitorIds: readonly string[];
  relayClients: number;
  resultsPerBatch: number;
  /** A client refused with a 503 waits this long before its next request (a stand-in for Retry-After, kept short). */
  pauseAfterRefusalMs: number;
}

export function startResultLoad(options: LoadOptions): ResultLoad {
  const answers: LoadAnswer[] = [];
  const ackedPushes = new Map(options.pushTokens.map((token) => [token, new Set<string>()]));
  const ackedResults = new Set<string>();
  const sentResults = new Set<string>();
  let running = true;

  async function send(
    kind: LoadAnswer['kind'],
    request: () => Promise<Response>,
  ): Promise<{ answer: LoadAnswer; body: string }> {
    const sentAt = performance.now();
    let res: Response;
    try {
      res = await request();
    } catch {
      const answer: LoadAnswer = {
        kind,
        sentAt,
        answeredAt: performance.now(),
        status: 0,
        retryAfter: null,
        contentType: null,
      };
      answers.push(answer);
      return { answer, body: '' };
    }
    const body = await res.text();
    const contentType = res.headers.get('content-type');
    const problem =
      contentType === 'application/problem+json' ? (JSON.parse(body) as { type?: string }).type : undefined;
    const answer: LoadAnswer = {
      kind,
      sentAt,
      answeredAt: performance.now(),
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      contentType,
      problem,
    };
    answers.push(answer);
    return { answer, body };
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function pushLoop(token: string): Promise<void> {
    for (let seq = 0; running; seq++) {
      const msg = `p${seq}`;
      const { answer } = await send('push', () =>
        fetch(`${options.url}/api/push/${token}?msg=${msg}&latency=${seq % 100}`),
      );
      if (answer.status === 200) ackedPushes.get(token)?.add(msg);
      else await pause(options.pauseAfterRefusalMs);
    }
  }

  async function relayLoop(client: number): Promise<void> {
    for (let seq = 0; running; seq++) {
      const results = Array.from({ length: options.resultsPerBatch }, (_, i) => ({
        id: `c${client}-${seq}-${i}`,
        monitorId: options.relayMonitorIds[i % options.relayMonitorIds.length] as string,
        ok: i % 7 !== 0,
        latencyMs: i,
      }));
      for (const r of results) sentResults.add(`${r.monitorId}\u0000${r.id}`);
      const { answer, body } = await send('relay', () =>
        fetch(`${options.url}/api/relay/results`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.relayToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ results }),
        }),
      );
      if (answer.status === 200) {
        const rejected = new Set((JSON.parse(body) as { rejected: { index: number }[] }).rejected.map((r) => r.index));
        results.forEach((r, i) => {
          if (!rejected.has(i)) ackedResults.add(`${r.monitorId}\u0000${r.id}`);
        });
      } else await pause(options.pauseAfterRefusalMs);
    }
  }

  const loops = [
    ...options.pushTokens.map(pushLoop),
    ...Array.from({ length: options.relayClients }, (_, i) => relayLoop(i)),
  ];

  return {
    answers,
    ackedPushes,
    ackedResults,
    sentResults,
    async first(kind, status, since, withinMs) {
      const deadline = performance.now() + withinMs;
      for (;;) {
        const found = answers.find((a) => a.kind === kind && a.status === status && a.sentAt >= since);
        if (found || performance.now() > deadline) return found;
        await pause(10);
      }
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
