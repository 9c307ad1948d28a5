// Uptime Kuma's Pushover, Gotify and Matrix notifications as Warden channels of those types: their keys and tokens as
// ${ENV} placeholders, what Warden decides for itself (priority, sound, title) reported.
import { envName, placeholder } from './uptime-kuma-values.js';

type Provider = (
  config: Record<string, unknown>,
  key: string,
  notes: string[],
) => { type: string; config: Record<string, unknown> } | { skip: string };

const str = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A secret field as its ${ENV} placeholder, with the note saying what to set. */
function secret(key: string, field: string, what: string, notes: string[]): string {
  const env = envName(key, field);
  notes.push(`its ${what} is read from \${${env}}: set it before warden config apply`);
  return placeholder(env);
}

function ignored(config: Record<string, unknown>, fields: Record<string, string>, notes: string[]): void {
  const set = Object.entries(fields).filter(([field]) => config[field] !== undefined && config[field] !== '');
  if (set.length > 0)
    notes.push(`its ${set.map(([, name]) => name).join(', ')} not imported: Warden sets them by the event's severity`);
}

export const KUMA_PUSH_PROVIDERS: Record<string, Provider> = {
  pushover(config, key, notes) {
    if (str(config.pushoveruserkey) === undefined || str(config.pushoverapptoken) === undefined)
      return { skip: 'it has no user key or application token' };
    const out = {
      token: secret(key, 'app_token', 'application token', notes),
      user: secret(key, 'user_key', 'user key', notes),
    };
    if (str(config.pushoverdevice)) notes.push('its device is not imported: messages go to all of the user’s devices');
    ignored(config, { pushoverpriority: 'priority', pushoversounds: 'sound', pushovertitle: 'title' }, notes);
    return { type: 'pushover', config: out };
  },
  gotify(config, key, notes) {
    const url = str(config.gotifyserverurl);
    if (url === undefined || str(config.gotifyapplicationToken) === undefined)
      return { skip: 'it has no server URL or application token' };
    const token = secret(key, 'token', 'application token', notes);
    ignored(config, { gotifyPriority: 'priority' }, notes);
    return { type: 'gotify', config: { url: url.replace(/\/+$/, ''), token } };
  },
  matrix(config, key, notes) {
    const homeserverUrl = str(config.homeserverUrl);
    const roomId = str(config.internalRoomId);
    if (homeserverUrl === undefined || roomId === undefined || str(config.accessToken) === undefined)
      return { skip: 'it has no homeserver URL, room id or access token' };
    const accessToken = secret(key, 'access_token', 'access token', notes);
    return { type: 'matrix', config: { homeserverUrl: homeserverUrl.replace(/\/+$/, ''), accessToken, roomId } };
  },
};
