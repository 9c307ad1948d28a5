// The --org option of the commands that act on one organization.
import { Option } from 'commander';

export const orgOption = () => new Option('--org <key>', 'organization key (default: the only one)');
