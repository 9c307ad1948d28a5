// `warden import uptime-kuma KUMA.db`: an Uptime Kuma database as a warden.yaml; with --history, its heartbeats as the
// buckets of the monitors imported from it (docs/import.md, "Uptime Kuma").
import { Command } from 'commander';
import { counted } from '../../domain/counted.js';
import { ValidationError } from '../../domain/errors.js';
import { loadGamedigGames } from '../../services/import/gamedig-games.js';
import { importUptimeKuma } from '../../services/import/uptime-kuma.js';
import { importUptimeKumaHistory } from '../../services/import/uptime-kuma-history.js';
import type { KumaDatabase } from '../../store/index.js';
import { NotKumaDatabaseError, openUptimeKumaDatabase } from '../../store/uptime-kuma.js';
import { formatTime, withOrganization } from '../session.js';
import { writeImport } from './import-output.js';

export function importUptimeKumaCommand(): Command {
  return new Command('uptime-kuma')
    .description(
      "Write a warden.yaml from an Uptime Kuma 1.23 or 2.x database (kuma.db, read-only): monitors, groups, status pages, maintenance, notifications. With --history, fill the imported monitors' hourly and daily buckets from its heartbeats instead.",
    )
    .argument('<file>', "Uptime Kuma's SQLite database (data/kuma.db; stop Kuma or copy it first)")
    .option('-o, --output <file>', 'write the warden.yaml here (default: standard output)')
    .option(
      '--org <key>',
      'the organization: its key in the written file (default "default"); with --history, the one whose monitors are filled (default: the only one)',
    )
    .option(
      '--history',
      'fill the buckets of monitors already applied from this import (run after `warden config apply`)',
    )
    .action(async (file: string, options: { output?: string; org?: string; history?: boolean }) => {
      if (options.history && options.output !== undefined)
        throw new ValidationError(
          [{ path: '--output', message: 'not used with --history' }],
          '--history writes buckets to the database, not a file.',
        );
      const kuma = openKuma(file);
      try {
        if (options.history) await importHistory(kuma, options.org);
        else {
          const report = importUptimeKuma(kuma.read(), {
            now: Date.now(),
            games: await loadGamedigGames(),
            organization: { key: options.org },
          });
          await writeImport(file, report, options.output);
        }
      } catch (error) {
        // A file over a read limit, malformed past its header, or holding cells of the wrong kind.
        if (error instanceof NotKumaDatabaseError)
          throw new ValidationError([{ path: file, message: error.message }], `${file} cannot be imported.`);
        throw error;
      } finally {
        kuma.close();
      }
    });
}

function openKuma(file: string): KumaDatabase {
  try {
    return openUptimeKumaDatabase(file);
  } catch (error) {
    if (error instanceof NotKumaDatabaseError)
      throw new ValidationError([{ path: file, message: error.message }], `${file} is not an Uptime Kuma database.`);
    throw error;
  }
}

async function importHistory(kuma: KumaDatabase, org: string | undefined): Promise<void> {
  const data = kuma.read();
  const report = await withOrganization(org, (ctx) =>
    importUptimeKumaHistory(ctx, { data, heartbeats: (id, since) => kuma.heartbeats(id, since) }),
  );
  for (const m of report.filled)
    process.stdout.write(
      m.checks === 0
        ? `${m.key}: no heartbeats before its first day in Warden\n`
        : `${m.key}: ${m.checks} heartbeats, ${formatTime(m.from)} to ${formatTime(m.to)}: ${m.days} days, ${m.hours} hours\n`,
    );
  for (const note of report.unmatched) process.stderr.write(`not filled: ${note.item}: ${note.reason}\n`);
  process.stderr.write(`filled ${counted(report.filled.length, 'monitor')}; ${report.unmatched.length} not matched\n`);
}
