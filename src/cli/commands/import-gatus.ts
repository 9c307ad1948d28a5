// `warden import gatus FILE`: a Gatus configuration (a file, or a GATUS_CONFIG_PATH folder of them) as a warden.yaml.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { ValidationError } from '../../domain/errors.js';
import { importGatus, parseGatusConfig } from '../../services/import/gatus.js';
import { writeImport } from './import-output.js';

/** Gatus files are small; a bigger one is a wrong path. */
const GATUS_MAX_BYTES = 4 * 1024 * 1024;

export function importGatusCommand(): Command {
  return new Command('gatus')
    .description(
      "Write a warden.yaml from a Gatus config: endpoints as monitors, external endpoints as heartbeats, groups as one page's components, alerting as channels.",
    )
    .argument('<file>', "Gatus's config.yaml, or a folder of .yaml files (merged as Gatus merges them)")
    .option('-o, --output <file>', 'write the warden.yaml here (default: standard output)')
    .option('--page <slug>', 'slug of the status page that shows every endpoint', 'status')
    .action(async (file: string, options: { output?: string; page: string }) => {
      const texts = await readGatus(file);
      let config: Record<string, unknown>;
      try {
        config = parseGatusConfig(texts);
      } catch (error) {
        throw new ValidationError(
          [{ path: file, message: (error as Error).message.split('\n')[0] ?? 'not YAML' }],
          `${file} is not a Gatus configuration.`,
        );
      }
      if (!Array.isArray(config.endpoints) && !Array.isArray(config['external-endpoints']))
        throw new ValidationError(
          [{ path: file, message: 'no endpoints: or external-endpoints: list' }],
          `${file} is not a Gatus configuration.`,
        );
      await writeImport(file, importGatus(config, { page: options.page }), options.output);
    });
}

async function readGatus(path: string): Promise<string[]> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new ValidationError(
      [{ path, message: error.code === 'ENOENT' ? 'no such file or folder' : error.message }],
      `${path} cannot be read.`,
    );
  });
  const files = found.isDirectory() ? await yamlFiles(path) : [path];
  if (files.length === 0)
    throw new ValidationError(
      [{ path, message: 'no .yaml or .yml file in this folder' }],
      `${path} holds no Gatus configuration.`,
    );
  let bytes = 0;
  const texts: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    bytes += Buffer.byteLength(text);
    if (bytes > GATUS_MAX_BYTES)
      throw new ValidationError([{ path, message: `larger than ${GATUS_MAX_BYTES} bytes` }], `${path} is too large.`);
    texts.push(text);
  }
  return texts;
}

/** The *.yaml and *.yml files under a folder, its subfolders included, in a stable order. */
async function yamlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.ya?ml$/i.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
