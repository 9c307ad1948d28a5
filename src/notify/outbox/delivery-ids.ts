// Delivery ids that sort in the order a process made them. The claim sends a lane's deliveries by (created_at, id),
// and the deliveries of one commit share created_at: the id keeps them in the order of their events (a maintenance
// window's start before its end; a monitor's "down" before its recovery when one batch of results held both). The
// random tail keeps two processes' ids apart.
import { randomBytes } from 'node:crypto';

/** Base-36 digits of the counter: 36⁸ ≈ 2.8 × 10¹² ids, more than a process makes in its life. */
const COUNTER_DIGITS = 8;

/** `start`: the counter's value before the first id (tests start it where a narrower counter ran out). */
export function createDeliveryIds(start = 0): (now: number) => string {
  let counter = start;
  return (now) => {
    counter += 1;
    return `dlv_${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(COUNTER_DIGITS, '0')}${randomBytes(4).toString('hex')}`;
  };
}
