// What Warden proposes for each panel server: a game monitor guessed from the egg, image and name, a panel resource
// monitor, and a component; keyed by the server identifier so that applying again is a re-sync.
import { createHash } from 'node:crypto';
import type { PanelServer } from './panel-api.js';

/** Every key discovery writes starts with this: apply changes no object without it. */
export const PANEL_KEY_PREFIX = 'ptero-';
/** Monitors created by apply carry this tag too: a `ptero-` monitor made by hand is left alone. */
export const PANEL_TAG = 'pterodactyl';
/** The suffix of a server's restart window's key (`ptero-<identifier>-restarts`). */
export const RESTARTS_SUFFIX = '-restarts';
export const RESOURCES_SUFFIX = '-resources';

/**
 * The tag naming the panel a monitor came from (`panel-` and 10 hex digits of its URL's hash): what lets apply tell
 * this panel's servers gone from another panel's.
 */
export function panelTag(panelUrl: string): string {
  const normalized = panelUrl.trim().replace(/\/+$/, '').toLowerCase();
  return `panel-${createHash('sha256').update(normalized).digest('hex').slice(0, 10)}`;
}

export type GameType = 'minecraft-java' | 'minecraft-bedrock' | 'source' | 'fivem' | 'tcp';

export interface ProposedMonitor {
  key: string;
  name: string;
  type: GameType | 'pterodactyl';
  config: Record<string, unknown>;
  tags: string[];
}

export interface PanelProposal {
  identifier: string;
  name: string;
  /** What the type was guessed from: the egg's name, the Docker image, the server's name, or nothing (tcp). */
  guessedFrom: 'egg' | 'image' | 'name' | null;
  /** The game monitor on the default allocation; null when the server has no allocation. */
  monitor: ProposedMonitor | null;
  /** The panel's view of the server (running, CPU, memory); the key is added on apply. */
  resourceMonitor: ProposedMonitor;
  component: { key: string; name: string; monitor: string };
}

/** First match wins: Bedrock and FiveM images are also Java-free, but "minecraft" alone means Java. */
const GAME_PATTERNS: [GameType, RegExp][] = [
  ['fivem', /fivem|fxserver|redm|\bcfx\b/],
  ['minecraft-bedrock', /bedrock|\bbds\b|nukkit|pocketmine|geyser/],
  // Rust answers Valve's A2S query like Source games do.
  [
    'source',
    /\brust\b|srcds|\bsource\b|counter-strike|\bcs2\b|\bcsgo\b|garry|\bgmod\b|team fortress|\btf2\b|left 4 dead|insurgency/,
  ],
  [
    'minecraft-java',
    /minecraft|paper|spigot|bukkit|forge|fabric|purpur|sponge|bungeecord|velocity|waterfall|\bjava\b|yolks:java/,
  ],
];

export function guessGame(server: PanelServer): { type: GameType; from: PanelProposal['guessedFrom'] } {
  const sources: [NonNullable<PanelProposal['guessedFrom']>, string | null][] = [
    ['egg', server.eggName],
    ['image', server.dockerImage],
    ['name', server.name],
  ];
  for (const [from, text] of sources) {
    if (!text) continue;
    const found = GAME_PATTERNS.find(([, pattern]) => pattern.test(text.toLowerCase()));
    if (found) return { type: found[0], from };
  }
  return { type: 'tcp', from: null };
}

/** The key of a server's objects: `ptero-` and its identifier (lowercased, cut to leave room for `-resources`). */
export function serverKey(identifier: string): string {
  return `${PANEL_KEY_PREFIX}${identifier.toLowerCase().slice(0, 48)}`;
}

export function proposalFor(server: PanelServer, panelUrl: string): PanelProposal {
  const key = serverKey(server.identifier);
  const name = server.name.trim() || server.identifier;
  const guess = guessGame(server);
  const address = server.allocation;
  const tags = [PANEL_TAG, panelTag(panelUrl)];
  const monitor: ProposedMonitor | null = address
    ? {
        key,
        name,
        type: guess.type,
        config: { host: hostOf(address, panelUrl), port: address.port },
        tags,
      }
    : null;
  const resourceMonitor: ProposedMonitor = {
    key: `${key}${RESOURCES_SUFFIX}`,
    name: `${name} (panel)`.slice(0, 200),
    type: 'pterodactyl',
    config: { panelUrl: panelUrl.replace(/\/+$/, ''), serverId: server.identifier },
    tags,
  };
  return {
    identifier: server.identifier,
    name,
    guessedFrom: address ? guess.from : null,
    monitor,
    resourceMonitor,
    component: { key, name, monitor: (monitor ?? resourceMonitor).key },
  };
}

/** The alias players connect to, else the bound address; a wildcard bind means the panel's own host. */
function hostOf(address: NonNullable<PanelServer['allocation']>, panelUrl: string): string {
  const ip = address.ipAlias?.trim() || address.ip;
  if (ip === '0.0.0.0' || ip === '::' || ip === '[::]') return new URL(panelUrl).hostname.replace(/^\[|\]$/g, '');
  return ip;
}
