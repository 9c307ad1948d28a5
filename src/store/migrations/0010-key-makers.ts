// Who made each API key (issue 32): removing a member or lowering their role revokes the keys they made. And which
// organizations warden.yaml made: config apply no longer takes over one it did not create, so the organizations an
// earlier apply wrote into, before the organization itself recorded it (0007), are marked here.
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

/** The tables whose rows the file may manage, each with its organization. Frozen here. */
const FILE_MANAGED = ['relays', 'monitors', 'pages', 'notification_channels'] as const;

export async function up(db: AnyDb): Promise<void> {
  // The user whose authority made the key: the signed-in admin, or for a key made with another key, that key's maker.
  // Null: the operator's CLI, or a key made before this migration. No foreign key: the record outlives the user (and
  // SQLite could not drop the column again).
  await db.schema.alterTable('api_keys').addColumn('created_by', 'text').execute();

  // Before 0007 the organization did not record who manages it, and 0007 made every existing one `api`; the next
  // apply marked it `config`. A database upgraded from before 0007 straight to here has had no such apply: its
  // organizations that hold objects the file manages were made by the file (only an apply writes such objects), and
  // while the database holds no account at all, every organization was (sign-ups and POST /organizations need a user).
  // Marked now, they keep being applied without `--adopt`; nobody else's organization matches either rule.
  await db
    .updateTable('organizations')
    .set({ managed_by: 'config' })
    .where('managed_by', '=', 'api')
    .where((eb) =>
      eb.or([
        ...FILE_MANAGED.map((table) =>
          eb.exists(
            eb
              .selectFrom(table)
              .select(sql.lit(1).as('one'))
              .whereRef(`${table}.organization_id`, '=', 'organizations.id')
              .where(`${table}.managed_by`, '=', 'config'),
          ),
        ),
        eb.not(eb.exists(eb.selectFrom('users').select(sql.lit(1).as('one')))),
      ]),
    )
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('created_by').execute();
}
