// An alert as the API and the dashboard show it: the monitor, open or resolved, and who acknowledged it when.
import { z } from 'zod';
import type { Alert, EscalationPolicy } from '../../domain/alert.js';
import type { Monitor } from '../../domain/monitor.js';

export const alertViewSchema = z.object({
  id: z.string().describe('alr_…'),
  monitor: z.object({ id: z.string(), key: z.string(), name: z.string() }),
  state: z.enum(['open', 'resolved']),
  openedAt: z.number().int().describe('When the monitor went down (or degraded).'),
  openedState: z.enum(['down', 'degraded']),
  resolvedAt: z.number().int().nullable(),
  acknowledged: z
    .object({
      at: z.number().int(),
      by: z.string().describe('The member or API key that acknowledged it, or `link` (the signed link in the alert).'),
      note: z.string().nullable(),
    })
    .nullable()
    .describe('null until someone acknowledges it: acknowledging stops its reminders and its escalation.'),
  escalation: z
    .object({
      policy: z.string().nullable().describe("The policy's key (null: deleted since)."),
      stepsSent: z.number().int(),
      channels: z.array(z.string()).describe('Keys of the channels its steps reached.'),
    })
    .nullable(),
});

export type AlertView = z.infer<typeof alertViewSchema>;

export function alertView(
  alert: Alert,
  monitor: Pick<Monitor, 'id' | 'key' | 'name'>,
  policies: ReadonlyMap<string, EscalationPolicy>,
): AlertView {
  return {
    id: alert.id,
    monitor: { id: monitor.id, key: monitor.key, name: monitor.name },
    state: alert.closedAt === null ? 'open' : 'resolved',
    openedAt: alert.openedAt,
    openedState: alert.openedState,
    resolvedAt: alert.closedAt,
    acknowledged:
      alert.acknowledgedAt === null
        ? null
        : { at: alert.acknowledgedAt, by: alert.acknowledgedBy ?? '', note: alert.ackNote },
    escalation:
      alert.policyId === null && alert.stepsSent === 0
        ? null
        : {
            policy: alert.policyId === null ? null : (policies.get(alert.policyId)?.key ?? null),
            stepsSent: alert.stepsSent,
            channels: alert.stepChannels,
          },
  };
}
