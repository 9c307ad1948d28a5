// warden.yaml's escalation policies, by key: created, made to match the file (and taken over when the API made them),
// or left as they are; the same checks as the API's (steps name the organization's channels).
import type { z } from 'zod';
import type { EscalationPolicy, EscalationPolicySpec } from '../../domain/alert.js';
import { organizationOf, parseInput, type ServiceContext, withTransaction } from '../context.js';
import { type PutOutcome, putByKey } from '../put.js';
import { checkedSpec, insertPolicy, policyCreateInput } from './policies.js';

/** A policy as warden.yaml declares it (`escalationPolicies:`): the API's create body. */
export const policyEntrySchema = policyCreateInput;

export async function putPolicy(
  ctx: ServiceContext,
  input: z.input<typeof policyEntrySchema>,
): Promise<{ policy: EscalationPolicy; outcome: PutOutcome }> {
  const entry = parseInput(policyEntrySchema, input);
  const declared: EscalationPolicySpec = { ...entry, monitors: entry.monitors ?? null };
  return withTransaction(ctx, async (tx) => {
    const { value, outcome } = await putByKey(tx, {
      label: `escalation policy "${declared.key}"`,
      current: await tx.store.escalationPolicies.findByKey(organizationOf(tx), declared.key),
      create: () => insertPolicy(tx, declared),
      spec: () => checkedSpec(tx, declared),
      changed: policySpecChanged,
      async update(current, spec, writer) {
        await tx.store.escalationPolicies.update(current.id, spec, writer, tx.clock.now());
        return (await tx.store.escalationPolicies.findById(current.id)) ?? current;
      },
    });
    return { policy: value, outcome };
  });
}

export function policySpecChanged(current: EscalationPolicySpec, next: EscalationPolicySpec): boolean {
  return (
    current.name !== next.name ||
    JSON.stringify(current.steps) !== JSON.stringify(next.steps) ||
    JSON.stringify(current.monitors) !== JSON.stringify(next.monitors)
  );
}
