import { describe, expect, it } from 'vitest';
import { isJoinAddress, isJoinUrl, joinAction, joinSettingSchema } from './join.js';
import { joinBadges } from './join-badges.js';

const monitor = (type: string, config: Record<string, unknown>, data?: Record<string, unknown>) => ({
  type,
  config,
  data,
});

describe('joinAction for Source / A2S games', () => {
  it('links steam://connect to the host and query port', () => {
    expect(joinAction(monitor('source', { host: 'cs.example.com', port: 27016 }))).toEqual({
      kind: 'steam',
      label: 'cs.example.com:27016',
      address: 'cs.example.com:27016',
      url: 'steam://connect/cs.example.com:27016',
    });
  });

  it('prefers the game port the server reported in A2S_INFO', () => {
    const join = joinAction(monitor('source', { host: '203.0.113.5', port: 27020 }, { gamePort: 27015 }));
    expect(join?.url).toBe('steam://connect/203.0.113.5:27015');
  });

  it('puts an IPv6 address in brackets', () => {
    expect(joinAction(monitor('source', { host: '2001:db8::5', port: 27015 }))?.url).toBe(
      'steam://connect/[2001:db8::5]:27015',
    );
  });

  it('joins GameDig Source games by Steam, with the game port and old ids', () => {
    expect(joinAction(monitor('gamedig', { game: 'garrysmod', host: 'gm.example.com', port: 27017 }))?.url).toBe(
      'steam://connect/gm.example.com:27017',
    );
    expect(joinAction(monitor('gamedig', { game: 'tf2', host: 'tf.example.com' }))?.url).toBe(
      'steam://connect/tf.example.com:27015',
    );
    // ARK queries on 27015 but is joined on 7777.
    expect(joinAction(monitor('gamedig', { game: 'ase', host: 'ark.example.com', port: 27015 }))?.url).toBe(
      'steam://connect/ark.example.com:7777',
    );
    expect(joinAction(monitor('gamedig', { game: 'ase', host: 'ark.example.com' }, { gamePort: 7779 }))?.address).toBe(
      'ark.example.com:7779',
    );
  });

  it('gives nothing for games Steam does not join', () => {
    expect(joinAction(monitor('gamedig', { game: 'teamspeak3', host: 'ts.example.com' }))).toBeNull();
    expect(joinAction(monitor('http', { url: 'https://example.com' }))).toBeNull();
    expect(joinAction(monitor('rust-webrcon', { host: 'rust.example.com', port: 28016 }))).toBeNull();
    expect(joinAction(null)).toBeNull();
  });
});

describe('joinAction for Minecraft', () => {
  it('copies the Java address without the usual port', () => {
    expect(joinAction(monitor('minecraft-java', { host: 'play.example.com' }))).toEqual({
      kind: 'copy',
      label: 'play.example.com',
      address: 'play.example.com',
    });
    expect(joinAction(monitor('minecraft-java', { host: 'play.example.com', port: 25565 }))?.address).toBe(
      'play.example.com',
    );
    expect(joinAction(monitor('minecraft-java', { host: 'play.example.com', port: 25570 }))?.address).toBe(
      'play.example.com:25570',
    );
  });

  it('copies the Bedrock address, with the port only when it is not 19132', () => {
    expect(joinAction(monitor('minecraft-bedrock', { host: 'be.example.com', port: 19132 }))?.address).toBe(
      'be.example.com',
    );
    expect(joinAction(monitor('minecraft-bedrock', { host: 'be.example.com', port: 19140 }))?.address).toBe(
      'be.example.com:19140',
    );
    expect(joinAction(monitor('gamedig', { game: 'mbe', host: 'be.example.com' }))?.kind).toBe('copy');
    expect(joinAction(monitor('gamedig', { game: 'minecraft', host: 'mc.example.com', port: 25566 }))?.address).toBe(
      'mc.example.com:25566',
    );
  });
});

describe('joinAction for FiveM and RedM', () => {
  it('links cfx.re/join when the server gave its join code', () => {
    expect(joinAction(monitor('fivem', { host: 'rp.example.com', port: 30120 }, { joinCode: 'abc123' }))).toEqual({
      kind: 'link',
      label: 'cfx.re/join/abc123',
      url: 'https://cfx.re/join/abc123',
    });
  });

  it('copies the connect command otherwise', () => {
    expect(joinAction(monitor('fivem', { host: 'rp.example.com', port: 30120 }))).toEqual({
      kind: 'copy',
      label: 'connect rp.example.com:30120',
      address: 'connect rp.example.com:30120',
    });
    expect(joinAction(monitor('gamedig', { game: 'redm', host: 'redm.example.com' }))?.address).toBe(
      'connect redm.example.com:30120',
    );
  });
});

describe('the join setting', () => {
  const source = monitor('source', { host: 'cs.example.com', port: 27015 });

  it('hides the join', () => {
    expect(joinAction(source, 'hidden')).toBeNull();
  });

  it('takes a custom address, Steam link or https link over the derived one', () => {
    expect(joinAction(source, { address: 'play.example.net:27000' })).toEqual({
      kind: 'copy',
      label: 'play.example.net:27000',
      address: 'play.example.net:27000',
    });
    expect(joinAction(source, { url: 'steam://connect/play.example.net:27000' })?.kind).toBe('steam');
    expect(joinAction(null, { url: 'https://cfx.re/join/xyz789' })).toEqual({
      kind: 'link',
      label: 'cfx.re/join/xyz789',
      url: 'https://cfx.re/join/xyz789',
    });
  });

  it('accepts only steam:, https: and host[:port]', () => {
    expect(isJoinUrl('javascript:alert(1)')).toBe(false);
    expect(isJoinUrl('http://example.com')).toBe(false);
    expect(isJoinUrl('data:text/html,hi')).toBe(false);
    expect(isJoinUrl('steam://connect/1.2.3.4:27015')).toBe(true);
    expect(isJoinAddress('play.example.com')).toBe(true);
    expect(isJoinAddress('[2001:db8::1]:19132')).toBe(true);
    expect(isJoinAddress('play.example.com:70000')).toBe(false);
    expect(isJoinAddress('<script>')).toBe(false);
    expect(joinSettingSchema.safeParse({}).success).toBe(false);
    expect(joinSettingSchema.safeParse({ url: 'javascript:alert(1)' }).success).toBe(false);
    expect(joinSettingSchema.parse({ address: ' mc.example.com ' })).toEqual({ address: 'mc.example.com' });
  });
});

describe('joinBadges', () => {
  it('names what the check saw: full, password, whitelist and queue', () => {
    expect(joinBadges({ players: 32, maxPlayers: 32, passwordProtected: true })).toEqual([
      { kind: 'full' },
      { kind: 'password' },
    ]);
    expect(joinBadges({ players: 10, maxPlayers: 100, queue: 4, whitelist: true })).toEqual([
      { kind: 'whitelist' },
      { kind: 'queue', count: 4 },
    ]);
  });

  it('makes no badge of what is unknown or empty', () => {
    expect(joinBadges({ players: 0, maxPlayers: 0, queue: 0, passwordProtected: false })).toEqual([]);
    expect(joinBadges(null)).toEqual([]);
  });
});
