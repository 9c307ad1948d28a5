// Who manages an object: warden.yaml (re-applied on every start) or the API and CLI; what the file manages, only the file changes.
import { z } from 'zod';
import { ConflictError } from './errors.js';

export type ManagedBy = 'config' | 'api';
export const MANAGED_BY = ['config', 'api'] as const;

/** Refuses (409) to change or delete an object the config file manages unless the writer is the config file itself. */
export function assertWritable(object: { managedBy: ManagedBy }, writer: ManagedBy, label: string): void {
  if (object.managedBy === 'config' && writer !== 'config')
    throw new ConflictError(
      `${label} is managed by warden.yaml (managedBy: "config"); change it in the file and apply it (restart Warden or run \`warden config apply\`).`,
    );
}

/** The fields every view of a stored object ends with: who manages it, and when it was created and last changed. */
export const ownershipFields = () => ({
  managedBy: z.enum(MANAGED_BY).describe('config: warden.yaml manages it and the API cannot change it.'),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});

/** What every stored object records of who manages it, and when it was created and last changed. */
export interface Ownership {
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}

export function ownershipOf(object: Ownership): Ownership {
  return { managedBy: object.managedBy, createdAt: object.createdAt, updatedAt: object.updatedAt };
}
