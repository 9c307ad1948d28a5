// Account hardening (issue 32): verified email addresses, when a session last proved it is its user's, links mailed to
// an address (finishing a sign-up, confirming a new email) and the server's own secrets (the known-device cookie's key).
import { sql } from 'kysely';
import { type AnyDb, createIndex, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', time).execute();
  // Accounts made before addresses were checked keep working as they did (invitations naming them, OpenID Connect):
  // they count as verified since their creation (docs/accounts.md says so).
  await db.updateTable('users').set({ email_verified_at: sql`created_at` }).execute();
  // Null for the sessions of before: their next sensitive change asks for the password or a code.
  await db.schema.alterTable('user_sessions').addColumn('proven_at', time).execute();

  await db.schema
    .createTable('email_links')
    // SHA-256 of the link's token (wdu_…).
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('signup', 'email-change')`))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('invitation_hash', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .execute();
  await createIndex(db, 'email_links_user', 'email_links', ['user_id', 'created_at']);

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // Random bytes, base64url; made once by whichever process needs it first.
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
  await db.schema.dropTable('email_links').execute();
  await db.schema.alterTable('user_sessions').dropColumn('proven_at').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
