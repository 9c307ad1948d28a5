// Where `npm run build` writes and how a finished build becomes dist/: each build fills a folder of its own beside
// dist/ (.dist-building-PID), which is renamed complete (.dist-STAMP-PID) and then made dist/ by replacing the dist
// symlink in one rename(2). Whatever reads dist/ (a server starting, a CLI command, `npm start`) finds the old build or
// the new one, never a half-written one, and never no dist/ at all.
//
// The folders sit at the depth of dist/ itself: the code finds docs/, package.json and node_modules relative to its own
// file (Node resolves the dist symlink to the real folder), and `../../docs/` from .dist-X/services/ is the checkout's.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * Complete builds kept: the live one and the one before it. A server keeps reading its own build's files after a new
 * build is made live (the dashboard's assets, read on first request): it can run on through one more build unharmed.
 */
export const KEPT_BUILDS = 2;

const BUILDING = /^\.dist-building-(\d+)$/;
const COMPLETE = /^\.dist-(\d{8}T\d{9}Z)-(\w+)$/;
const LINKING = /^\.dist-link-(\d+)$/;

/** A fresh, empty folder for this process's build (one left by an earlier run of the same PID is cleared). */
export function startBuild(root: string): string {
  removeAbandoned(root);
  const folder = join(root, `.dist-building-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  return folder;
}

/** Makes a finished build dist/: renamed complete, linked in one rename, older builds removed. Returns its folder name. */
export function publishBuild(root: string, building: string): string {
  const name = `.dist-${stamp(new Date())}-${process.pid}`;
  renameSync(building, join(root, name));
  linkDist(root, name);
  removeOldBuilds(root);
  return name;
}

/**
 * Points dist at `folder` (a name beside it): a new symlink renamed over the old one, which rename(2) does atomically.
 * A dist/ that is still a plain directory (a checkout built before builds had folders) is moved aside first, the one
 * moment dist/ is missing, once.
 */
export function linkDist(root: string, folder: string): void {
  const dist = join(root, 'dist');
  const link = join(root, `.dist-link-${process.pid}`);
  rmSync(link, { force: true });
  // 'junction' matters on Windows only, where a directory symlink needs privileges and a junction does not.
  symlinkSync(folder, link, 'junction');
  try {
    renameSync(link, dist);
  } catch (error) {
    if (!isPlainDirectory(dist)) {
      rmSync(link, { force: true });
      throw error;
    }
    renameSync(dist, join(root, `.dist-${stamp(statSync(dist).mtime)}-unversioned`));
    renameSync(link, dist);
  }
}

/** The folder dist points at, or undefined when dist is missing or a plain directory. */
export function liveBuild(root: string): string | undefined {
  try {
    return readlinkSync(join(root, 'dist'))
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .at(-1);
  } catch {
    return undefined;
  }
}

/**
 * Removes complete builds beyond the live one and the newest before it, and what builds that died left (a folder or
 * link of a process that is gone). Never the live build, whatever its age, nor one whose builder still runs (another
 * build at the same time, between its rename and its link).
 */
export function removeOldBuilds(root: string): void {
  removeAbandoned(root);
  const live = liveBuild(root);
  const complete = readdirSync(root)
    .filter((name) => COMPLETE.test(name) && name !== live)
    .sort()
    .reverse();
  for (const name of complete.slice(KEPT_BUILDS - 1)) {
    const builder = Number(COMPLETE.exec(name)?.[2]);
    if (builder && builder !== process.pid && alive(builder)) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
}

function removeAbandoned(root: string): void {
  for (const name of readdirSync(root)) {
    const pid = Number((BUILDING.exec(name) ?? LINKING.exec(name))?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPlainDirectory(path: string): boolean {
  return existsSync(path) && lstatSync(path).isDirectory();
}

/** A UTC time that sorts as text: 20260101T120000123Z. */
function stamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}
