// Acknowledging an alert: by a member or key through the API (and the dashboard), or by the signed link in the alert
// (GET reads what it would do, POST does it, so a mail scanner opening links acknowledges nothing). An acknowledged
// alert gets no more reminders nor escalation steps; everyone sees who acknowledged it and when; the audit log says so.
import { z } from 'zod';
import { ACK_LINK_SECRET, type Alert, checkAckLink, ESCALATION_LIMITS } from '../../domain/alert.js';
import { ConflictError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { recordAudit } from '../audit/record.js';
import { parseInput, type ServiceContext, writeVerb } from '../context.js';
import { requireAlert, viewsOf } from './read.js';
import type { AlertView } from './view.js';

export const acknowledgeInput = z.object({
  id: reference(),
  note: z
    .string()
    .trim()
    .max(ESCALATION_LIMITS.noteChars)
    .optional()
    .describe(
      `What is being done (at most ${ESCALATION_LIMITS.noteChars} characters); shown with the acknowledgement.`,
    ),
});

/** The API's and the dashboard's acknowledgement, by the caller (the route records the audit entry). */
export const acknowledgeAlert = writeVerb(acknowledgeInput, async (tx, { id, note }): Promise<AlertView> => {
  const alert = await requireAlert(tx, id);
  const by = tx.actor && tx.actor.kind !== 'system' ? tx.actor.name : (tx.actor?.name ?? 'warden');
  await acknowledge(tx, alert, by, note ? note : null);
  return (await viewsOf(tx, [(await tx.store.alerts.findById(id)) ?? alert]))[0] as AlertView;
});

async function acknowledge(tx: ServiceContext, alert: Alert, by: string, note: string | null): Promise<void> {
  if (alert.closedAt !== null) throw new ConflictError(`alert ${alert.id} is resolved already`);
  if (!(await tx.store.alerts.acknowledge(alert.id, { at: tx.clock.now(), by, note }))) {
    const now = await tx.store.alerts.findById(alert.id);
    throw new ConflictError(
      now?.acknowledgedAt != null
        ? `alert ${alert.id} was acknowledged already by ${now.acknowledgedBy} at ${new Date(now.acknowledgedAt).toISOString()}`
        : `alert ${alert.id} is resolved already`,
    );
  }
  tx.logger.info({ alert: alert.id, by }, 'alert acknowledged');
}

export const ackLinkInput = z.object({
  alert: z.string().max(100),
  expires: z.coerce.number().int().min(0).catch(0),
  sig: z.string().max(100),
});

export type AckLinkOutcome =
  | { outcome: 'open' | 'acknowledged' | 'resolved'; alert: AlertView }
  /** A signature that does not match (or no link was ever signed), or an unknown alert. */
  | { outcome: 'invalid' }
  | { outcome: 'expired' };

/** What the link would do (GET): the alert, if the link is good; nothing is changed. */
export async function readAckLink(ctx: ServiceContext, input: z.input<typeof ackLinkInput>): Promise<AckLinkOutcome> {
  const checked = await checkedLink(ctx, parseInput(ackLinkInput, input));
  if ('outcome' in checked) return checked;
  const [view] = await viewsOf(ctx, [checked.alert]);
  if (!view) return { outcome: 'invalid' };
  const outcome = view.state === 'resolved' ? 'resolved' : view.acknowledged ? 'acknowledged' : 'open';
  return { outcome, alert: view };
}

/** Acknowledges by the link (POST): by `link`, audit-logged in the alert's organization. */
export const acknowledgeByLink = writeVerb(ackLinkInput, async (tx, input): Promise<AckLinkOutcome> => {
  const checked = await checkedLink(tx, input);
  if ('outcome' in checked) return checked;
  const { alert } = checked;
  const ctx: ServiceContext = {
    ...tx,
    organizationId: alert.organizationId,
    actor: { kind: 'system', name: 'link' },
  };
  if (alert.closedAt === null && alert.acknowledgedAt === null) {
    await acknowledge(ctx, alert, 'link', null);
    await recordAudit(ctx, {
      action: 'alert.acknowledge',
      id: alert.id,
      label: await labelOf(ctx, alert),
      detail: { by: 'link' },
    });
  }
  return readAckLink(ctx, input);
});

async function checkedLink(
  ctx: ServiceContext,
  link: z.output<typeof ackLinkInput>,
): Promise<{ alert: Alert } | { outcome: 'invalid' } | { outcome: 'expired' }> {
  const key = await ctx.store.serverSecrets.get(ACK_LINK_SECRET);
  if (key === undefined) return { outcome: 'invalid' };
  const check = checkAckLink(
    key,
    { alertId: link.alert, expiresAt: link.expires, signature: link.sig },
    ctx.clock.now(),
  );
  if (check === 'forged') return { outcome: 'invalid' };
  if (check === 'expired') return { outcome: 'expired' };
  const alert = await ctx.store.alerts.findById(link.alert);
  return alert ? { alert } : { outcome: 'invalid' };
}

/** The monitor's key, for the audit entry's label. */
export async function labelOf(ctx: ServiceContext, alert: Alert): Promise<string | null> {
  return (await ctx.store.monitors.findById(alert.monitorId))?.key ?? null;
}
