// Acknowledgements alone, against a recording stand-in for the one write they make: no store, no timers.
import { describe, expect, it } from 'vitest';
import { type AckStore, createAcknowledgements } from './acks.js';

function recorder(fail: () => boolean = () => false, hold?: Promise<void>) {
  const commits: string[][] = [];
  const begun: string[][] = [];
  const store: AckStore = {
    async transaction(work) {
      const batch: string[] = [];
      begun.push(batch);
      const out = await work({ deliveries: { markSent: async (id) => void batch.push(id) } });
      await hold;
      if (fail()) throw new Error('disk full');
      commits.push(batch);
      return out;
    },
  };
  return { store, commits, begun };
}

/** A turn the test lets go of by hand. */
function steppedTurn() {
  const waiting: (() => void)[] = [];
  return { turn: () => new Promise<void>((resolve) => waiting.push(resolve)), step: () => waiting.shift()?.() };
}

describe('acknowledgements', () => {
  it('records the sends that finish in one turn in one transaction, and resolves each once it committed', async () => {
    const { store, commits } = recorder();
    const { turn, step } = steppedTurn();
    const acks = createAcknowledgements(store, turn);
    const resolved: string[] = [];
    const all = ['dlv_1', 'dlv_2', 'dlv_3'].map((id) =>
      acks.acknowledge({ id, sentAt: 1, status: 204, answer: null }).then(() => void resolved.push(id)),
    );
    expect(acks.pending()).not.toBeNull();
    await Promise.resolve();
    expect(resolved).toEqual([]);
    step();
    await Promise.all(all);
    expect(commits).toEqual([['dlv_1', 'dlv_2', 'dlv_3']]);
    expect(resolved).toEqual(['dlv_1', 'dlv_2', 'dlv_3']);
    expect(acks.pending()).toBeNull();
  });

  it('starts a new batch for a send that finishes while one commits', async () => {
    let commit = () => {};
    const { store, commits, begun } = recorder(undefined, new Promise<void>((resolve) => (commit = resolve)));
    const { turn, step } = steppedTurn();
    const acks = createAcknowledgements(store, turn);
    const first = acks.acknowledge({ id: 'dlv_1', sentAt: 1, status: 204, answer: null });
    step();
    while (begun[0]?.length !== 1) await Promise.resolve();
    const second = acks.acknowledge({ id: 'dlv_2', sentAt: 2, status: 204, answer: null });
    commit();
    await Promise.all([first, second]);
    expect(commits).toEqual([['dlv_1'], ['dlv_2']]);
  });

  it('rejects every acknowledgement of a batch that failed to commit, and takes the next one afresh', async () => {
    let failing = true;
    const { store, commits } = recorder(() => failing);
    const { turn, step } = steppedTurn();
    const acks = createAcknowledgements(store, turn);
    const lost = [
      acks.acknowledge({ id: 'dlv_1', sentAt: 1, status: 204, answer: null }),
      acks.acknowledge({ id: 'dlv_2', sentAt: 1, status: 204, answer: null }),
    ];
    step();
    const outcomes = await Promise.allSettled(lost);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    failing = false;
    const kept = acks.acknowledge({ id: 'dlv_3', sentAt: 2, status: 204, answer: 'ok' });
    step();
    await kept;
    expect(commits).toEqual([['dlv_3']]);
  });
});
