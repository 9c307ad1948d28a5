// What every `warden import …` command does with its report: validate the warden.yaml, write it, say what was skipped.
import { writeFile } from 'node:fs/promises';
import { configFileSchema } from '../../config/file-schema.js';
import { ConfigError } from '../../config/load.js';
import { formatWardenYaml } from '../../config/write.js';
import { counted } from '../../domain/counted.js';
import { formatIssuePath } from '../../domain/issue-path.js';
import { type ImportReport, importHeader } from '../../services/import/report.js';

/**
 * Prints an import's warden.yaml to `output` (standard output when absent), and every skipped or approximated object
 * on standard error as well as in the file's header. The document is validated first: an importer bug never writes a
 * file `config apply` would refuse.
 */
export async function writeImport(source: string, report: ImportReport, output: string | undefined): Promise<void> {
  validateImport(report.file, `the import of ${source}`);
  const text = formatWardenYaml(report.file, importHeader(source, report));
  if (output === undefined) process.stdout.write(text);
  else await writeFile(output, text);
  const notes = importHeader(source, report).slice(1);
  if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
  process.stderr.write(
    `${output ?? 'standard output'}: ${summary(report.file)}; ${report.skipped.length} skipped, ${report.approximated.length} approximated\n`,
  );
}

/**
 * What validateConfig checks, except values holding an ${ENV} placeholder (a secret the operator sets): those are
 * checked by `config apply`, once substituted.
 */
function validateImport(file: Record<string, unknown>, source: string): void {
  const result = configFileSchema.safeParse(file);
  if (result.success) return;
  const problems = result.error.issues.filter((issue) => !holdsPlaceholder(file, issue.path));
  if (problems.length > 0)
    throw new ConfigError(
      source,
      problems.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`),
    );
}

function holdsPlaceholder(file: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = file;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return typeof value === 'string' && /\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/.test(value);
}

function summary(file: Record<string, unknown>): string {
  const count = (key: string) => (Array.isArray(file[key]) ? (file[key] as unknown[]).length : 0);
  return `${counted(count('monitors'), 'monitor')}, ${counted(count('pages'), 'page')}`;
}
