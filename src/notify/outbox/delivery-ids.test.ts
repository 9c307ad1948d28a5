// Delivery ids sort in the order one process made them, within an instant (one commit's deliveries share created_at, and
// the claim sends a lane by (created_at, id)) and across instants, also past the point where a four-digit counter
// wrapped; two processes' ids of one instant never clash.
import { describe, expect, it } from 'vitest';
import { createDeliveryIds } from './delivery-ids.js';

const NOW = Date.UTC(2026, 11, 1, 21);
const sortedAsText = (ids: string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('delivery ids', () => {
  it('sort in the order made, within one instant and across instants', () => {
    const next = createDeliveryIds();
    const ids = [next(NOW), next(NOW), next(NOW), next(NOW + 1), next(NOW + 1), next(NOW + 1000)];
    expect(sortedAsText(ids)).toEqual(ids);
    expect(ids[0]).toMatch(/^dlv_[0-9a-z]{17}[0-9a-f]{8}$/);
  });

  it('keep their order where a four-digit counter ran out (36⁴ ids into a process)', () => {
    const next = createDeliveryIds(36 ** 4 - 2);
    const ids = [next(NOW), next(NOW), next(NOW), next(NOW)];
    expect(sortedAsText(ids)).toEqual(ids);
  });

  it('never clash between two processes making ids at the same instant', () => {
    const a = createDeliveryIds();
    const b = createDeliveryIds();
    const ids = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? a(NOW) : b(NOW)));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
