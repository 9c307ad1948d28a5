// Uptime Kuma's incident-tool and SMS providers as warden.yaml channels: PagerDuty, Opsgenie and Twilio, their keys and
// tokens as ${ENV} placeholders. Warden resolves and closes on recovery by itself, with its own severities.
import { envName, placeholder } from './uptime-kuma-values.js';

type Mapped = { type: string; config: Record<string, unknown> } | { skip: string };
type Provider = (config: Record<string, unknown>, key: string, notes: string[]) => Mapped;

const str = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const PAGERDUTY_ENQUEUE = /\/v2\/enqueue\/?$/;

/** Keyed by Kuma's provider names (its `type`), as they are spelled there. */
export const KUMA_ALERTING_PROVIDERS: Record<string, Provider> = {
  PagerDuty(config, key, notes) {
    if (str(config.pagerdutyIntegrationKey) === undefined) return { skip: 'it has no integration key' };
    const env = envName(key, 'routing_key');
    notes.push(`its integration key is read from \${${env}}: set it before warden config apply`);
    const out: Record<string, unknown> = { routingKey: placeholder(env) };
    const url = str(config.pagerdutyIntegrationUrl);
    if (url !== undefined && url.replace(/\/+$/, '') !== 'https://events.pagerduty.com/v2/enqueue') {
      if (!PAGERDUTY_ENQUEUE.test(url))
        return { skip: `its integration URL ${url} is not an Events API v2 enqueue URL` };
      out.apiUrl = url.replace(PAGERDUTY_ENQUEUE, '');
    }
    if (str(config.pagerdutyPriority))
      notes.push("its severity is not imported: Warden sets one by the event's severity");
    if (str(config.pagerdutyAutoResolve) !== 'resolve')
      notes.push('Kuma did not resolve on recovery; Warden resolves the alert when the monitor is back up');
    return { type: 'pagerduty', config: out };
  },
  Opsgenie(config, key, notes) {
    if (str(config.opsgenieApiKey) === undefined) return { skip: 'it has no API key' };
    const env = envName(key, 'api_key');
    notes.push(`its API key is read from \${${env}}: set it before warden config apply`);
    if (config.opsgeniePriority !== undefined && config.opsgeniePriority !== null)
      notes.push("its priority is not imported: Warden sets one by the event's severity (down is P1)");
    notes.push("Warden's alias is its own (warden:<organization>:monitor:<id>): close alerts Kuma opened by hand");
    return {
      type: 'opsgenie',
      config: { apiKey: placeholder(env), ...(str(config.opsgenieRegion) === 'eu' ? { region: 'eu' } : {}) },
    };
  },
  twilio(config, key, notes) {
    const [accountSid, from, to] = [config.twilioAccountSID, config.twilioFromNumber, config.twilioToNumber].map(str);
    if (accountSid === undefined || from === undefined || to === undefined || str(config.twilioAuthToken) === undefined)
      return { skip: 'it has no account SID, auth token, sender or recipient' };
    if (str(config.twilioApiKey) !== undefined)
      notes.push('Warden signs in with the account SID and its auth token, not an API key: set the auth token');
    const env = envName(key, 'auth_token');
    notes.push(`its auth token is read from \${${env}}: set it before warden config apply`);
    return { type: 'twilio', config: { accountSid, authToken: placeholder(env), from, to } };
  },
};
