// `warden export [--org KEY] [-o FILE]`: the organization as warden.yaml, secrets as ${ENV} placeholders, to move it
// to another Warden with `warden config apply`.
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { exportConfig } from '../../config/export.js';
import { counted } from '../../domain/counted.js';
import { withOrganization } from '../session.js';
import { orgOption } from './org-option.js';

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'Write an organization (monitors, pages with components, incidents and maintenance, relays, notification channels, escalation policies) as warden.yaml; secrets become ${ENV} placeholders.',
    )
    .addOption(orgOption())
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action(async (options: { org?: string; output?: string }) => {
      await withOrganization(options.org, async (ctx) => {
        const exported = await exportConfig(ctx);
        if (options.output === undefined) process.stdout.write(exported.text);
        else await writeFile(options.output, exported.text);
        const { relays, monitors, pages, notifications, escalationPolicies } = exported.counts;
        process.stderr.write(
          `exported organization ${exported.organization.key}${options.output === undefined ? '' : ` to ${options.output}`}: ${counted(relays, 'relay')}, ${counted(monitors, 'monitor')}, ${counted(pages, 'page')}, ${counted(notifications, 'notification channel')}, ${counted(escalationPolicies, 'escalation policy', 'escalation policies')}\n`,
        );
        if (exported.variables.length > 0)
          process.stderr.write(
            `secrets are \${NAME} placeholders: set ${exported.variables.map((v) => v.name).join(', ')} before \`warden config apply\` (the file's header says which is which)\n`,
          );
      });
    });
}
