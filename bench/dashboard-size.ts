// What the browser must download before the dashboard can start: the entry chunk and every chunk it imports statically,
// read from Vite's manifest of a build (dist/web), each gzipped as the server sends it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const DASHBOARD_BUILD_DIR = fileURLToPath(new URL('../dist/web/', import.meta.url));
/** Issue 16: the initial JavaScript of the dashboard, gzipped. */
export const INITIAL_JS_BUDGET_BYTES = 250 * 1000;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export interface InitialJavaScript {
  /** Each file with its gzipped size, entry first. */
  files: { file: string; gzipBytes: number }[];
  gzipBytes: number;
}

export function initialJavaScript(dir: string = DASHBOARD_BUILD_DIR): InitialJavaScript {
  const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error(`no entry chunk in ${dir}.vite/manifest.json`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entry);
  const files = [...seen].map((key) => {
    const file = (manifest[key] as ManifestChunk).file;
    return { file, gzipBytes: gzipSync(readFileSync(join(dir, file)), { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}
