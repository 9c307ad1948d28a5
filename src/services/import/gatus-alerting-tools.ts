// Gatus's incident-tool and SMS providers as Warden channels: PagerDuty, Opsgenie and Twilio, each secret an ${ENV}
// placeholder. Warden keys, prioritizes and resolves alerts its own way (docs/notifications.md).
import { fileText } from './file-text.js';
import type { Channel, Provider, Secret } from './gatus-alerting.js';

type Builder = (provider: Provider, secret: Secret) => Channel | { skip: string };

const RESOLVES =
  'Warden resolves the alert on recovery only when its rules send monitor.recovered (Gatus: send-on-resolved)';

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Keyed by Gatus's provider names. */
export const GATUS_ALERTING_TOOLS: Record<string, Builder> = {
  pagerduty: (p, secret) => {
    if (!given(p['integration-key'])) return { skip: 'integration-key is required' };
    return {
      type: 'pagerduty',
      name: 'PagerDuty',
      config: { routingKey: secret('integration-key', p['integration-key']) },
      notes: [RESOLVES],
    };
  },
  opsgenie: (p, secret) => {
    if (!given(p['api-key'])) return { skip: 'api-key is required' };
    const set = ['priority', 'source', 'entity-prefix', 'alias-prefix', 'tags'].filter((field) => given(p[field]));
    const notes = [RESOLVES];
    if (set.length > 0)
      notes.push(`${set.join(', ')} not imported: Warden sets its own priority by severity, alias, source and tags`);
    return { type: 'opsgenie', name: 'Opsgenie', config: { apiKey: secret('api-key', p['api-key']) }, notes };
  },
  twilio: (p, secret) => {
    if (![p.sid, p.token, p.from, p.to].every(given)) return { skip: 'sid, token, from and to are required' };
    const set = ['text-twilio-triggered', 'text-twilio-resolved'].filter((field) => given(p[field]));
    return {
      type: 'twilio',
      name: 'SMS (Twilio)',
      config: {
        accountSid: fileText(p.sid),
        authToken: secret('token', p.token),
        from: fileText(p.from),
        to: fileText(p.to),
      },
      notes: set.length > 0 ? [`${set.join(', ')} not imported: Warden's messages have their own layout`] : [],
    };
  },
};
