// The game types a status page shows players of, as test/game-types.test.ts drives them: each type's probe against its
// fake (minecraft-protocol's own server for Minecraft Java, the A2S fake through GameDig for gamedig), a scene the test
// changes between checks, and what the type reports: the claims of docs/join.md's "What each game type reports".
import mc from 'minecraft-protocol';
import { type A2sFakeOptions, startA2sServer } from './fakes/a2s-server.js';
import { startFakeBedrockServer } from './fakes/bedrock-server.js';
import { fivemServerState, pterodactylServer, startFivemFake, startPterodactylFake } from './fakes/game-api-fakes.js';
import { type RustFakeOptions, startRustWebrconServer } from './fakes/rust-webrcon-server.js';

/** What a game server shows at one moment; a type that cannot tell a fact ignores it. */
export interface GameScene {
  players: number;
  max: number;
  names: string[];
  version: string;
  map: string;
  queue: number;
  password: boolean;
}

/** A fake game server, and the monitor (warden.yaml) that watches it. */
export interface GameServerFake {
  monitor: { type: string; runOn?: 'relay'; config: Record<string, unknown> };
  set(scene: GameScene): void;
  close(): Promise<void>;
}

/** The facts of a scene a type's checks carry, each a column of the docs' table. */
export const REPORTED_FACTS = ['players', 'max', 'names', 'queue', 'map', 'version', 'password'] as const;
export type ReportedFact = (typeof REPORTED_FACTS)[number];

export type JoinKind = 'steam' | 'copy' | 'link' | 'none';

export interface GameTypeCase {
  /** The row of the docs' table: a monitor type, or `gamedig` with the game it asks. */
  name: string;
  reports: Record<ReportedFact, boolean>;
  join: JoinKind;
  /** The join control's markup on the page for this fake (its href or the address it copies). */
  joinHtml(fake: GameServerFake): string | null;
  start(scene: GameScene): Promise<GameServerFake>;
}

const ALL = { players: true, max: true, names: true, queue: true, map: true, version: true, password: true };
/** The game port a Source server names in A2S_INFO's extra data: the join uses it, not the query port. */
const GAME_PORT = 27050;
const JOIN_CODE = 'abc123';

const portOf = (fake: GameServerFake) => fake.monitor.config.port as number;

function a2sFake(monitor: (port: number) => GameServerFake['monitor']) {
  return async (scene: GameScene): Promise<GameServerFake> => {
    const options: A2sFakeOptions = { challenge: true, info: { bots: 0, edf: { gamePort: GAME_PORT } } };
    const fake = await startA2sServer(options);
    const set = (s: GameScene) => {
      Object.assign(fake.info, { players: s.players, maxPlayers: s.max, map: s.map, version: s.version });
      fake.info.visibility = s.password ? 1 : 0;
      options.playerNames = s.names;
    };
    set(scene);
    return { monitor: monitor(fake.port), set, close: () => fake.close() };
  };
}

async function minecraftJava(scene: GameScene): Promise<GameServerFake> {
  let now = scene;
  const server = mc.createServer({
    'online-mode': false,
    host: '127.0.0.1',
    port: 0,
    version: '1.21.4',
    // A vanilla server samples who is online; minecraft-protocol leaves the whole answer to beforePing.
    beforePing: (response: { version: { name: string }; players: unknown }) => {
      response.version.name = now.version;
      const sample = now.names.map((name, n) => ({
        name,
        id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      }));
      response.players = { online: now.players, max: now.max, sample };
      return response;
    },
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  // minecraft-protocol does not type the net.Server it listens with.
  const { port } = (server as unknown as { socketServer: { address(): { port: number } } }).socketServer.address();
  return {
    monitor: { type: 'minecraft-java', config: { host: '127.0.0.1', port, playerNames: true } },
    set: (s) => (now = s),
    close: async () => server.close(),
  };
}

async function minecraftBedrock(scene: GameScene): Promise<GameServerFake> {
  const advertisement = (s: GameScene) =>
    `MCPE;Warden Bedrock;766;${s.version};${s.players};${s.max};1234567890123;${s.map};Survival;1;19132;19133;`;
  const behaviour = { kind: 'pong' as const, advertisement: advertisement(scene) };
  const fake = await startFakeBedrockServer(behaviour);
  return {
    monitor: { type: 'minecraft-bedrock', config: { host: '127.0.0.1', port: fake.port } },
    set: (s) => (behaviour.advertisement = advertisement(s)),
    close: () => fake.close(),
  };
}

/** A FiveM server, sharing its cfx.re join code (web_baseUrl) or not. */
async function fivem(scene: GameScene, shareJoinCode = true): Promise<GameServerFake> {
  const base = fivemServerState();
  const fake = await startFivemFake(base);
  const set = (s: GameScene) => {
    const state = fake.state;
    state.dynamic = { ...(base.dynamic as object), clients: s.players, sv_maxclients: String(s.max), mapname: s.map };
    const info = base.info as { vars: object };
    state.info = {
      ...info,
      server: `FXServer-master SERVER v${s.version} linux`,
      vars: {
        ...info.vars,
        mapname: s.map,
        ...(shareJoinCode ? { web_baseUrl: `owner-${JOIN_CODE}.users.cfx.re` } : {}),
      },
    };
    state.players = s.names.map((name, id) => ({ endpoint: '198.51.100.7', id, identifiers: ['license:a'], name }));
  };
  set(scene);
  return {
    monitor: { type: 'fivem', config: { host: '127.0.0.1', port: fake.port, playerNames: true } },
    set,
    close: () => fake.close(),
  };
}

async function rustWebrcon(scene: GameScene): Promise<GameServerFake> {
  const options: RustFakeOptions = { password: 'pw-rust' };
  const set = (s: GameScene) => {
    options.info = { Players: s.players, MaxPlayers: s.max, Queued: s.queue, Map: s.map, Protocol: s.version };
    options.players = s.names;
  };
  set(scene);
  const fake = await startRustWebrconServer(options);
  return {
    monitor: {
      type: 'rust-webrcon',
      config: { host: '127.0.0.1', port: fake.port, password: 'pw-rust', playerNames: true },
    },
    set,
    close: () => fake.close(),
  };
}

async function pterodactyl(): Promise<GameServerFake> {
  const panel = await startPterodactylFake({ apiKey: 'ptlc_gameTypes', servers: { d3aac109: pterodactylServer() } });
  return {
    monitor: {
      type: 'pterodactyl',
      config: { panelUrl: panel.url, serverId: 'd3aac109', apiKey: 'ptlc_gameTypes' },
    },
    set: () => {},
    close: () => panel.close(),
  };
}

export const GAME_TYPE_CASES: GameTypeCase[] = [
  {
    name: 'minecraft-java',
    reports: { ...ALL, queue: false, map: false, password: false },
    join: 'copy',
    joinHtml: (fake) => `data-copy="127.0.0.1:${portOf(fake)}"`,
    start: minecraftJava,
  },
  {
    name: 'minecraft-bedrock',
    reports: { ...ALL, names: false, queue: false, map: false, password: false },
    join: 'copy',
    joinHtml: (fake) => `data-copy="127.0.0.1:${portOf(fake)}"`,
    start: minecraftBedrock,
  },
  {
    name: 'source',
    reports: { ...ALL, queue: false },
    join: 'steam',
    joinHtml: () => `href="steam://connect/127.0.0.1:${GAME_PORT}"`,
    start: a2sFake((port) => ({ type: 'source', config: { host: '127.0.0.1', port, playerNames: true } })),
  },
  {
    name: 'gamedig counterstrike2',
    reports: { ...ALL, names: false, queue: false },
    join: 'steam',
    joinHtml: () => `href="steam://connect/127.0.0.1:${GAME_PORT}"`,
    start: a2sFake((port) => ({
      type: 'gamedig',
      runOn: 'relay',
      config: { game: 'counterstrike2', host: '127.0.0.1', port },
    })),
  },
  {
    name: 'fivem',
    reports: { ...ALL, queue: false, password: false },
    join: 'link',
    joinHtml: () => `href="https://cfx.re/join/${JOIN_CODE}" target="_blank"`,
    start: (scene) => fivem(scene),
  },
  {
    name: 'rust-webrcon',
    reports: { ...ALL, password: false },
    join: 'none',
    joinHtml: () => null,
    start: rustWebrcon,
  },
  {
    name: 'pterodactyl',
    reports: { players: false, max: false, names: false, queue: false, map: false, version: false, password: false },
    join: 'none',
    joinHtml: () => null,
    start: pterodactyl,
  },
];

/** FiveM without a join code: players paste `connect host:port` in the F8 console. */
export const FIVEM_WITHOUT_JOIN_CODE: GameTypeCase = {
  ...(GAME_TYPE_CASES.find((game) => game.name === 'fivem') as GameTypeCase),
  name: 'fivem without a join code',
  join: 'copy',
  joinHtml: (fake) => `data-copy="connect 127.0.0.1:${portOf(fake)}"`,
  start: (scene) => fivem(scene, false),
};
