// The usual operations on one object of the organization — read it, change the fields given, delete it — and their
// audit entries, worded alike for every kind of object. A route group spreads them into apiOperation next to its path,
// its verb and what is its own (a description, a role).
import type { z } from '@hono/zod-openapi';
import type { AuditedObject } from '../../../services/audit/record.js';
import type { ServiceContext } from '../../../services/context.js';

/** GET of one object: "Read a monitor", answered with it ("The monitor.", or `short` for the noun there). */
export const readOne = <S extends z.ZodType>(noun: string, schema: S, short = noun) =>
  ({
    method: 'get',
    summary: `Read a ${noun}`,
    scope: 'read',
    ok: { status: 200, schema, description: `The ${short}.` },
  }) as const;

/** PATCH of the fields given in `body`: "Change a monitor", answered with the changed object. */
export const changeOne = <B extends z.ZodType>(noun: string, body: B, schema: z.ZodType, short = noun) =>
  ({
    method: 'patch',
    summary: `Change a ${noun}`,
    scope: 'write',
    body,
    ok: { status: 200, schema, description: `The changed ${short}.` },
  }) as const;

/** DELETE of one object: "Delete a monitor", answered 204. */
export const deleteOne = (noun: string) =>
  ({
    method: 'delete',
    summary: `Delete a ${noun}`,
    scope: 'write',
    ok: { status: 204, description: 'Deleted.' },
  }) as const;

/** The audit entry of a write answered with the object it wrote: named by its id and its key (a page's: its slug). */
export const keyedAudit = <K extends 'key' | 'slug' = 'key'>(action: string, by: K = 'key' as K) => ({
  action,
  object: (_input: unknown, object: { id: string } & Record<K, string>) => ({ id: object.id, label: object[by] }),
});

/**
 * The audit entry of a delete. The path may name the object by key: its id and label come from `before`, the read
 * before the delete.
 */
export const deletedAudit = <I>(
  action: string,
  before: (ctx: ServiceContext, input: I) => Promise<Partial<AuditedObject> | undefined>,
) => ({ action, object: () => ({ id: null, label: null }), before });
