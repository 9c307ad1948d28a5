// What the production launcher (cli/launch.ts) and the bundle it runs share: the code cache's fate, and import().

/** accepted: the start compiled almost nothing; rejected: V8 refused it (other V8 flags, another Node); absent: none. */
export type CodeCacheState = 'accepted' | 'rejected' | 'absent';

/** Registered symbols: the launcher and the bundle it runs are separate modules. */
export const CODE_CACHE_STATE = Symbol.for('warden.codeCache');
export const LAUNCHER_IMPORT = Symbol.for('warden.import');

type Slots = Record<symbol, unknown>;

/** The state this process started with; undefined when it was not started by the launcher (tsx, tsc output, tests). */
export function codeCacheState(): CodeCacheState | undefined {
  return (globalThis as Slots)[CODE_CACHE_STATE] as CodeCacheState | undefined;
}

/**
 * import() of a package left outside the bundle (satori, gamedig, pg, nodemailer…). Under the launcher it goes through
 * the launcher's own import(): Node 20's V8 forgets a vm.Script's import() handler for functions it takes from the code
 * cache ("A dynamic import callback was not specified"). Elsewhere (tsx, tsc output, tests) it is a plain import().
 */
export function importPackage<T>(name: string): Promise<T> {
  const launcherImport = (globalThis as Slots)[LAUNCHER_IMPORT] as
    | ((specifier: string) => Promise<unknown>)
    | undefined;
  return (launcherImport ? launcherImport(name) : import(/* @vite-ignore */ name)) as Promise<T>;
}
