// The writes of panel discovery and apply as the audit log tests make them, against the fake panel of the test.
import type { AuditStepsEnv, Step } from './audit-steps.js';

export function panelSteps({ panel }: AuditStepsEnv): Step[] {
  const body = () => ({ panelUrl: panel().url, apiKey: panel().key });
  return [
    {
      op: 'POST /api/v1/panels/discover',
      path: () => '/api/v1/panels/discover',
      body,
      by: 'key',
      action: 'panel.discover',
    },
    {
      op: 'POST /api/v1/panels/apply',
      path: () => '/api/v1/panels/apply',
      body: () => ({ ...body(), page: 'alpha', servers: ['1a7ce997'] }),
      by: 'user',
      action: 'panel.apply',
    },
  ];
}
