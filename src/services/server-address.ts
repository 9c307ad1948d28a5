// The address links printed by the command line use: WARDEN_BASE_URL, else the one the last server started on this
// database recorded (its listening address), else http://localhost:PORT — then said to be a guess.
import type { ServiceContext } from './context.js';

const SETTING = 'server-address';

/** Called by a server once it listens: the address the command line's links name from then on. */
export async function recordServerAddress(ctx: ServiceContext, url: string): Promise<void> {
  await ctx.store.serverSecrets.put(SETTING, url.replace(/\/+$/, ''), ctx.clock.now());
}

export interface ServerAddress {
  url: string;
  /** Neither WARDEN_BASE_URL nor a server's record: the host and port are a guess. */
  guessed: boolean;
  source: 'WARDEN_BASE_URL' | 'recorded' | 'guess';
}

/** Where the server of this database is reached; `port` is this process's PORT, for the guess. */
export async function serverAddress(ctx: ServiceContext, port: number): Promise<ServerAddress> {
  if (ctx.baseUrl) return { url: ctx.baseUrl.replace(/\/+$/, ''), guessed: false, source: 'WARDEN_BASE_URL' };
  const recorded = await ctx.store.serverSecrets.get(SETTING);
  if (recorded) return { url: recorded, guessed: false, source: 'recorded' };
  return { url: `http://localhost:${port}`, guessed: true, source: 'guess' };
}

/** The line that tells a reader the address in a link is a guess (nothing when it is not). */
export function guessNote(address: ServerAddress): string {
  return address.guessed
    ? `note: no server has recorded its address on this database and WARDEN_BASE_URL is not set: ${address.url} in these links is a guess\n`
    : '';
}
