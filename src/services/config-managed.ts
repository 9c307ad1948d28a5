// The rule between warden.yaml and the API: what the file manages, only the file changes.
import { ConflictError } from '../domain/errors.js';
import { isUniqueViolation } from '../store/connect.js';
import type { ManagedBy } from '../store/tables.js';

/** Refuses to change or delete an object the config file manages (409), naming the object and where to edit it. */
export function refuseConfigManaged(object: { managedBy: ManagedBy }, label: string): void {
  if (object.managedBy === 'config')
    throw new ConflictError(
      `${label} is managed by warden.yaml (managedBy: "config"); change it in the file and apply it (restart Warden or run \`warden config apply\`).`,
    );
}

/** Runs a write, turning a unique-constraint race (two requests creating the same key at once) into a 409. */
export async function uniquely<T>(write: () => Promise<T>, conflict: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(conflict);
    throw error;
  }
}
