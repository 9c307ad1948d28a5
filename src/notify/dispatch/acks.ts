// The dispatcher's acknowledgements: a send that went through is recorded as sent in one transaction with the others
// that finished meanwhile — one commit (one fsync on SQLite) for a handful instead of one each. Each acknowledgement
// resolves once its batch committed (rejects if it failed). Knows the store only as the one write it makes.

/** The write an acknowledgement batch makes: markSent for each, in one transaction. */
export interface AckStore {
  transaction<T>(
    work: (tx: {
      deliveries: { markSent(id: string, sentAt: number, status: number | null, answer: string | null): Promise<void> };
    }) => Promise<T>,
  ): Promise<T>;
}

export interface Ack {
  id: string;
  sentAt: number;
  status: number | null;
  answer: string | null;
}

export interface Acknowledgements {
  /** Records `ack` with its batch; resolves once the batch is committed. */
  acknowledge(ack: Ack): Promise<void>;
  /** The batch loop while it runs (stop waits for it before handing claims back), else null. */
  pending(): Promise<void> | null;
}

/** `turn` lets the sends finishing in this turn join the batch (setImmediate unless a test steps it). */
export function createAcknowledgements(
  store: AckStore,
  turn: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
): Acknowledgements {
  let queued: (Ack & { resolve: () => void; reject: (error: unknown) => void })[] = [];
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    await turn();
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await store.transaction(async (tx) => {
          for (const ack of batch) await tx.deliveries.markSent(ack.id, ack.sentAt, ack.status, ack.answer);
        });
        for (const ack of batch) ack.resolve();
      } catch (error) {
        for (const ack of batch) ack.reject(error);
      }
    }
    flushing = null;
  }

  return {
    acknowledge(ack) {
      return new Promise<void>((resolve, reject) => {
        queued.push({ ...ack, resolve, reject });
        flushing ??= flush();
      });
    },
    pending: () => flushing,
  };
}
