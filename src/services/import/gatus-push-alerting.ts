// Gatus's pushover, gotify and matrix alerting providers as Warden channels of those types: keys and tokens become
// ${ENV} placeholders (through the caller's `secret`), what Warden decides for itself (priority, sound, title) is reported.
type Provider = Record<string, unknown>;
type Secret = (field: string, value: unknown) => string;
type Channel = { type: string; name: string; config: Record<string, unknown>; notes: string[] };
type Builder = (provider: Provider, secret: Secret) => Channel | { skip: string };

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** Gatus's default Matrix homeserver when `server-url` is left out. */
const GATUS_MATRIX_SERVER = 'https://matrix-client.matrix.org';

function ignored(p: Provider, fields: string[]): string[] {
  const set = fields.filter((field) => p[field] !== undefined && p[field] !== '');
  return set.length === 0 ? [] : [`${set.join(', ')} not imported: Warden sets them by the event's severity`];
}

export const GATUS_PUSH_BUILDERS: Record<string, Builder> = {
  pushover: (p, secret) => {
    if (p['application-token'] === undefined || p['user-key'] === undefined)
      return { skip: 'application-token and user-key are required' };
    const config = {
      token: secret('application-token', p['application-token']),
      user: secret('user-key', p['user-key']),
    };
    const notes = ignored(p, ['title', 'priority', 'resolved-priority', 'sound', 'ttl']);
    if (text(p.device)) notes.push("device not imported: messages go to all of the user's devices");
    return { type: 'pushover', name: 'Pushover', config, notes };
  },
  gotify: (p, secret) => {
    const url = text(p['server-url']);
    if (url === undefined || p.token === undefined) return { skip: 'server-url and token are required' };
    const config = { url: url.replace(/\/+$/, ''), token: secret('token', p.token) };
    return { type: 'gotify', name: 'Gotify', config, notes: ignored(p, ['title', 'priority']) };
  },
  matrix: (p, secret) => {
    const roomId = text(p['internal-room-id']);
    if (roomId === undefined || p['access-token'] === undefined)
      return { skip: 'access-token and internal-room-id are required' };
    const homeserverUrl = (text(p['server-url']) ?? GATUS_MATRIX_SERVER).replace(/\/+$/, '');
    const config = { homeserverUrl, accessToken: secret('access-token', p['access-token']), roomId };
    return { type: 'matrix', name: 'Matrix', config, notes: [] };
  },
};
