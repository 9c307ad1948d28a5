// `warden import uptime-kuma|gatus`: turn another monitoring tool's data into a warden.yaml (docs/import.md).
import { Command } from 'commander';
import { importGatusCommand } from './import-gatus.js';
import { importUptimeKumaCommand } from './import-uptime-kuma.js';

export function importCommand(): Command {
  return new Command('import')
    .description('Write a warden.yaml from another tool: Uptime Kuma (its SQLite database) or Gatus (its config file).')
    .addCommand(importUptimeKumaCommand())
    .addCommand(importGatusCommand());
}
