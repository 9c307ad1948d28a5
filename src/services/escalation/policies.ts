// Escalation policies through the API: list, create, read, change and delete an organization's policies. Steps name
// the organization's channels by key (an unknown one is a 400 naming the field); the outbox and the escalation scan
// read them when an alert opens and while it is unacknowledged (docs/notifications.md, "Escalation and acknowledgement").
import { z } from 'zod';
import { ESCALATION_LIMITS, type EscalationPolicy, type EscalationPolicySpec } from '../../domain/alert.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { intIn, reference, stableKey, text } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import { ownershipFields } from '../../domain/ownership.js';
import { organizationOf, readVerb, type ServiceContext, uniquely, writerFor, writerOf, writeVerb } from '../context.js';
import { requireOwned } from '../owned-ref.js';

const L = ESCALATION_LIMITS;

const stepSchema = z
  .object({
    afterMin: intIn(0, L.maxAfterMin, ' minutes').describe('Minutes after the alert opened (0: at once).'),
    channels: z.array(stableKey()).min(1).max(L.channelsPerStep).describe('Keys of the channels this step alerts.'),
  })
  .strict();

const policyFields = {
  name: text(200),
  steps: z
    .array(stepSchema)
    .min(1)
    .max(L.steps)
    .refine((steps) => steps.every((s, i) => i === 0 || s.afterMin > (steps[i - 1]?.afterMin ?? 0)), {
      error: 'each step comes later than the one before (afterMin increasing)',
    })
    .describe('In order: step 1 when the alert opens (or after its afterMin), each next one later.'),
  monitors: z
    .array(stableKey())
    .max(L.monitors)
    .nullable()
    .optional()
    .describe('Keys of the monitors it covers; absent or null: every monitor (a policy naming one wins).'),
};

export const policyCreateInput = z.object({ key: stableKey(), ...policyFields }).strict();
export const policyRefInput = z.object({ id: reference() });
export const policyPatchInput = z
  .object({
    id: reference(),
    name: policyFields.name.optional(),
    steps: policyFields.steps.optional(),
    monitors: policyFields.monitors,
  })
  .strict();

export const policyViewSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  steps: z.array(z.object({ afterMin: z.number().int(), channels: z.array(z.string()) })),
  monitors: z.array(z.string()).nullable(),
  ...ownershipFields(),
});

export type PolicyView = z.infer<typeof policyViewSchema>;

export const policyView = (p: EscalationPolicy): PolicyView => ({
  id: p.id,
  key: p.key,
  name: p.name,
  steps: p.steps,
  monitors: p.monitors,
  managedBy: p.managedBy,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

export const listPolicies = readVerb(
  z.object({}),
  async (ctx): Promise<PolicyView[]> => (await ctx.store.escalationPolicies.list(organizationOf(ctx))).map(policyView),
);

export const readPolicy = readVerb(policyRefInput, async (ctx, { id }) => policyView(await requirePolicy(ctx, id)));

export const createPolicy = writeVerb(
  policyCreateInput,
  async (tx, input): Promise<PolicyView> =>
    policyView(await insertPolicy(tx, { ...input, monitors: input.monitors ?? null })),
);

/** A new policy of the caller's organization, managed by the caller (the API, or warden.yaml). */
export async function insertPolicy(tx: ServiceContext, input: EscalationPolicySpec): Promise<EscalationPolicy> {
  const organizationId = organizationOf(tx);
  if ((await tx.store.escalationPolicies.list(organizationId)).length >= L.policies)
    throw new ConflictError(`an organization has at most ${L.policies} escalation policies`);
  const spec = await checkedSpec(tx, input);
  const id = newId('esc');
  await uniquely(
    tx,
    () => tx.store.escalationPolicies.insert({ ...spec, id, organizationId, managedBy: writerOf(tx) }, tx.clock.now()),
    `an escalation policy with key "${input.key}" exists already`,
  );
  return (await tx.store.escalationPolicies.findById(id)) as EscalationPolicy;
}

export const updatePolicy = writeVerb(policyPatchInput, async (tx, { id, ...patch }): Promise<PolicyView> => {
  const current = await requirePolicy(tx, id);
  const writer = writerFor(tx, current, `escalation policy "${current.key}"`);
  const spec = await checkedSpec(tx, {
    key: current.key,
    name: patch.name ?? current.name,
    steps: patch.steps ?? current.steps,
    monitors: patch.monitors === undefined ? current.monitors : patch.monitors,
  });
  await tx.store.escalationPolicies.update(current.id, spec, writer, tx.clock.now());
  return policyView((await tx.store.escalationPolicies.findById(current.id)) ?? current);
});

export const deletePolicy = writeVerb(policyRefInput, async (tx, { id }): Promise<void> => {
  const current = await requirePolicy(tx, id);
  writerFor(tx, current, `escalation policy "${current.key}"`);
  await tx.store.escalationPolicies.delete(current.id);
});

export async function requirePolicy(ctx: ServiceContext, id: string): Promise<EscalationPolicy> {
  return requireOwned(ctx, 'escalation policy', ctx.store.escalationPolicies, { id });
}

/** The spec, once every channel it names is one of the organization's (400 naming the field otherwise). */
export async function checkedSpec(ctx: ServiceContext, spec: EscalationPolicySpec): Promise<EscalationPolicySpec> {
  const keys = new Set((await ctx.store.channels.list(organizationOf(ctx))).map((c) => c.key));
  const issues = spec.steps.flatMap((step, i) =>
    step.channels.flatMap((key, j) =>
      keys.has(key) ? [] : [{ path: `steps[${i}].channels[${j}]`, message: `no notification channel "${key}"` }],
    ),
  );
  if (issues.length > 0) throw new ValidationError(issues);
  return spec;
}
