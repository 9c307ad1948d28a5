// The shape of warden.yaml's put… verbs: the object under the entry's key is created, left as it is, or made to match
// the entry and managed by its writer from then on; one place decides which, and refuses what the writer may not change.
import { assertWritable, type ManagedBy } from '../domain/ownership.js';
import { type ServiceContext, writerOf } from './context.js';

/** What a put… verb did with its object. */
export type PutOutcome = 'created' | 'updated' | 'unchanged';

/** One put: the object found under the key, and the steps that compare and write it. `S`: what the entry says of it. */
export interface PutSteps<T extends { managedBy: ManagedBy }, S> {
  /** What a refusal calls the object: `component "api" of page "status"`. */
  label: string;
  /** The object stored under the entry's key, if any. */
  current: T | undefined;
  /** Creates the object the entry describes (its cap, its key, its events). */
  create(): Promise<T>;
  /** What the entry makes of the object, resolved against the store (it may refuse: an unknown reference, a taken domain). */
  spec(current: NoInfer<T>): S | Promise<S>;
  /** Whether the object differs from that; who manages it is compared apart (a writer taking it over always writes). */
  changed(current: NoInfer<T>, spec: NoInfer<S>): boolean;
  /** Writes it, managed by `writer` from now on, publishes what follows, and returns the object as it now stands. */
  update(current: NoInfer<T>, spec: NoInfer<S>, writer: ManagedBy): Promise<NoInfer<T>>;
}

/** Creates the object, or makes it match the entry (409 when the writer may not change it), or leaves it as it is. */
export async function putByKey<T extends { managedBy: ManagedBy }, S>(
  ctx: ServiceContext,
  steps: PutSteps<T, S>,
): Promise<{ value: T; outcome: PutOutcome }> {
  const { current } = steps;
  if (!current) return { value: await steps.create(), outcome: 'created' };
  const writer = writerOf(ctx);
  assertWritable(current, writer, steps.label);
  const spec = await steps.spec(current);
  if (!steps.changed(current, spec) && current.managedBy === writer) return { value: current, outcome: 'unchanged' };
  return { value: await steps.update(current, spec, writer), outcome: 'updated' };
}
