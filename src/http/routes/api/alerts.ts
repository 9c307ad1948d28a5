// /api/v1/alerts: the organization's alerts (open by default), one alert, and acknowledging one (editors).
import { z } from '@hono/zod-openapi';
import { acknowledgeAlert, acknowledgeInput, labelOf } from '../../../services/alerts/acknowledge.js';
import { alertListInput, listAlerts, readAlert, requireAlert } from '../../../services/alerts/read.js';
import { alertViewSchema } from '../../../services/alerts/view.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idParam, listOperation } from './operation.js';

const Alert = alertViewSchema.openapi('Alert');

export function alertRoutes(app: App, guards: ApiGuards): void {
  const op = { tag: 'alerts', path: '/api/v1/alerts' } as const;
  const params = z.object({ id: idParam('alert', 'alr_Yc2mRk7Q1tVx9pL3aZ0b') });
  listOperation(app, guards, {
    ...op,
    summary: 'List alerts',
    description:
      "A monitor's alert opens when it goes down (or degraded) and resolves when it is back up; `state=open` (the default) lists the open ones, newest first.",
    query: alertListInput,
    key: 'alerts',
    item: Alert,
    ok: 'The alerts.',
    run: listAlerts,
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/alerts/{id}',
    method: 'get',
    scope: 'read',
    summary: 'Read an alert',
    params,
    notFound: 'No alert with this id in your organization.',
    ok: { status: 200, schema: Alert, description: 'The alert.' },
    run: readAlert,
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/alerts/{id}/acknowledge',
    method: 'post',
    scope: 'write',
    summary: 'Acknowledge an alert',
    description:
      'Someone is on it: the alert gets no more reminders nor escalation steps, and everyone sees who acknowledged it and when. 409 when it is resolved or acknowledged already.',
    params,
    body: acknowledgeInput.omit({ id: true }).strict().openapi('AlertAcknowledge'),
    notFound: 'No alert with this id in your organization.',
    ok: { status: 200, schema: Alert, description: 'The alert, acknowledged.' },
    run: acknowledgeAlert,
    audit: {
      action: 'alert.acknowledge',
      object: (_input, alert) => ({ id: alert.id, label: alert.monitor.key }),
      before: async (ctx, { id }) => {
        const alert = await requireAlert(ctx, id);
        return { id, label: await labelOf(ctx, alert) };
      },
      detail: ({ note }) => (note ? { fields: ['note'] } : null),
    },
  });
}
