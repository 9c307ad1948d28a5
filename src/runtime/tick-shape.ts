// Keeps alive the shape of the object Node's process.nextTick makes, so an idle spell cannot cost the hot paths their
// fast property stores for good (docs/operations.md, Memory).
import { AsyncResource } from 'node:async_hooks';

/**
 * Every `process.nextTick` (several per request: streams, sockets, the HTTP server) makes a tick object,
 * `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`. V8 gives it its shape by a chain of map
 * transitions that it holds only weakly: a full collection that finds no tick object alive (a quiet process, where
 * V8's memory reducer runs three of them) drops the chain, and the next tick objects build a new one. The property
 * stores in `nextTick`, whose feedback saw the old shapes, then no longer take their fast path, and once TurboFan has
 * optimized `nextTick` that way it stays so for the life of the process. Measured on the status.md read after the
 * overview's 20-s idle: 16–19 µs of user CPU per request against 11–13 µs without the idle or with this pin; the
 * three store lines of `nextTick` held 7 % of the CPU profile's samples, against 0.2 %.
 *
 * One object of the same shape, held for the life of the process, keeps the chain: an object literal of the same
 * four properties, in the same order, under the same two symbols (which `AsyncResource` instances carry too), walks
 * the same transitions. The ids are doubles, as Node's are (they come from a Float64Array). Returns whether it could
 * pin: a Node that names its symbols otherwise runs as it would without it (`tick-shape.test.ts` checks this Node).
 */
export function pinTickObjectShape(): boolean {
  if (pinned) return true;
  const symbols = Object.getOwnPropertySymbols(new AsyncResource('WardenTickShape'));
  const asyncId = symbols.find((symbol) => symbol.description === 'async_id_symbol');
  const triggerAsyncId = symbols.find((symbol) => symbol.description === 'trigger_async_id_symbol');
  if (asyncId === undefined || triggerAsyncId === undefined) return false;
  pinned = { [asyncId]: 0.5, [triggerAsyncId]: 0.5, callback: noop, args: undefined };
  return true;
}

/** The pinned object, for the test that compares its shape with a real tick object's. */
export function pinnedTickObject(): object | undefined {
  return pinned;
}

let pinned: object | undefined;

function noop(): void {}
