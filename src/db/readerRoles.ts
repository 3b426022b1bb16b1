import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { TradeledgerError } from '../errors.js';
import { sqlIdentifier, sqlLiteral } from './sqlText.js';

/**
 * The tables a reader never sees: the portal's credentials and its security records (password
 * hashes, session token hashes, failed sign-ins and refused requests with client addresses).
 * Every other table and view of the schema is readable. A migration that adds a table holding
 * anything of the kind must add it here (test/db/readerRoles.test.ts reads each of these as a
 * reader and expects a refusal).
 */
export const hiddenFromReaders = ['portal_users', 'portal_sessions', 'portal_login_failures', 'portal_access_denied'] as const;

/** Where the schema's tables and views are. */
const schema = 'public';

/** A reader's name: a plain lower-case SQL identifier, so it is the same quoted or not (psql -U NAME). */
const namePattern = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * A SCRAM-SHA-256 verifier of a password, in the form PostgreSQL stores (`rolpassword`): the
 * server is given this, never the password, so the password is in no statement a server could log.
 * The form is PostgreSQL's (https://www.postgresql.org/docs/15/catalog-pg-authid.html:
 * "SCRAM-SHA-256$<iteration count>:<salt>$<StoredKey>:<ServerKey>"), the keys RFC 5802's
 * (ClientKey = HMAC(SaltedPassword, "Client Key"), StoredKey = H(ClientKey), ServerKey =
 * HMAC(SaltedPassword, "Server Key")) with SHA-256 (RFC 7677). The password is normalised NFKC,
 * as SASLprep does for the passwords people type.
 *
 * @example
 * scramVerifier('s3cret').startsWith('SCRAM-SHA-256$4096:'); // true
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(Buffer.from(password.normalize('NFKC'), 'utf8'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

function bad(message: string, hint: string): TradeledgerError {
  return new TradeledgerError('DB_READER', message, { kind: 'config', hint });
}

/**
 * Checks a reader's name.
 *
 * @example
 * readerName('analyst_anna'); // 'analyst_anna'
 */
export function readerName(name: string): string {
  if (!namePattern.test(name)) {
    throw bad(`"${name}" is not a reader name`, 'Use lower-case letters, digits and _ , starting with a letter (at most 63), e.g. analyst_anna.');
  }
  return name;
}

/**
 * Grants a role what a reader has: SELECT on every table and view but the hidden ones (all a
 * table owner may grant, so the migrator can refresh it); with `role` also connect, the schema
 * and read-only transactions by default in this database (CREATEROLE and the database's owner).
 */
async function grantReading(client: pg.Client, role: string, what: 'tables' | 'role'): Promise<void> {
  const r = sqlIdentifier(role);
  if (what === 'role') {
    const db = await currentDatabase(client);
    await client.query(`GRANT CONNECT ON DATABASE ${db} TO ${r}`);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${r}`);
    await client.query(`ALTER ROLE ${r} IN DATABASE ${db} SET default_transaction_read_only = on`);
  }
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${r}`);
  // Only those that exist (a database migrated before one of them was added has none).
  const { rows } = await client.query<{ t: string }>(`SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = $1 AND c.relname = ANY($2::text[])`, [schema, [...hiddenFromReaders]]);
  for (const { t } of rows) await client.query(`REVOKE ALL ON ${schema}.${sqlIdentifier(t)} FROM ${r}`);
}

/**
 * The readers of this database (`db reader list`): login roles, not the connected one nor a
 * superuser, granted SELECT on the ledger view.
 *
 * @example
 * await listReaders(client); // ['analyst_anna']
 */
export async function listReaders(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ r: string }>(`SELECT r.rolname AS r FROM pg_roles r
    WHERE r.rolcanlogin AND NOT r.rolsuper AND r.rolname <> current_user
      AND CASE WHEN to_regclass('${schema}.ledger') IS NULL THEN false ELSE has_table_privilege(r.oid, '${schema}.ledger', 'SELECT') END
      AND NOT pg_has_role(r.oid, 'pg_read_all_data', 'MEMBER')
    ORDER BY 1`);
  return rows.map((x) => x.r);
}

/**
 * Adds a read-only login role for analysts (`tradeledger db reader add NAME`), or sets a new
 * password for one that exists: it can read every table and view of the schema but the portal's
 * credentials ({@link hiddenFromReaders}), write nothing, and its transactions are read-only.
 * The password reaches the server only as a SCRAM verifier. Refuses a name that is a superuser,
 * the connected user, or a role that may create roles or databases.
 *
 * @example
 * await addReader(client, 'analyst_anna', password); // { created: true }
 */
export async function addReader(client: pg.Client, name: string, password: string): Promise<{ created: boolean }> {
  const role = readerName(name);
  if (password.length < 12) throw bad('the password is shorter than 12 characters', 'Give a longer one (a reader can read every record of the accounts).');
  const existing = (await client.query<{ rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean; me: boolean }>(
    'SELECT rolsuper, rolcreaterole, rolcreatedb, rolname = current_user AS me FROM pg_roles WHERE rolname = $1', [role])).rows[0];
  if (existing && (existing.rolsuper || existing.rolcreaterole || existing.rolcreatedb || existing.me)) {
    throw bad(`the role "${role}" exists and is ${existing.me ? 'the one tradeledger connects as' : 'allowed to create roles or databases'}: it cannot be made a reader`, 'Pick another name for the reader.');
  }
  const verifier = sqlLiteral(scramVerifier(password));
  await client.query('BEGIN');
  try {
    await client.query(existing
      ? `ALTER ROLE ${sqlIdentifier(role)} LOGIN PASSWORD ${verifier}`
      : `CREATE ROLE ${sqlIdentifier(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD ${verifier}`);
    await grantReading(client, role, 'role');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw privilegeProblem(err, role);
  }
  return { created: existing === undefined };
}

/**
 * Takes a reader's access to this database away (`db reader remove NAME`) and drops the role
 * when nothing else holds it (another database's grants keep it: said in the result).
 *
 * @example
 * await removeReader(client, 'analyst_anna'); // { dropped: true }
 */
export async function removeReader(client: pg.Client, name: string): Promise<{ dropped: boolean }> {
  const role = readerName(name);
  if (!(await listReaders(client)).includes(role)) {
    throw bad(`"${role}" is not a reader of this database`, 'List the readers with: tradeledger db reader list');
  }
  const r = sqlIdentifier(role);
  const db = await currentDatabase(client);
  await client.query('BEGIN');
  try {
    await client.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${r}`);
    await client.query(`REVOKE ALL ON SCHEMA ${schema} FROM ${r}`);
    await client.query(`REVOKE ALL ON DATABASE ${db} FROM ${r}`);
    await client.query(`ALTER ROLE ${r} IN DATABASE ${db} RESET ALL`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw privilegeProblem(err, role);
  }
  // The role itself goes unless another database still grants it something (2BP01).
  try {
    await client.query(`DROP ROLE ${r}`);
    return { dropped: true };
  } catch (err) {
    if ((err as { code?: string }).code === '2BP01') return { dropped: false };
    throw privilegeProblem(err, role);
  }
}

/**
 * Grants every reader the tables a migration just added (the migrator calls it after applying
 * any): a reader keeps reading the whole schema but the hidden tables across upgrades.
 *
 * @example
 * await refreshReaders(client); // 1 (one reader granted again)
 */
export async function refreshReaders(client: pg.Client): Promise<number> {
  const readers = await listReaders(client);
  for (const role of readers) await grantReading(client, role, 'tables');
  return readers.length;
}

/** The connected database's name, quoted for a statement. */
async function currentDatabase(client: pg.Client): Promise<string> {
  return sqlIdentifier((await client.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d);
}

function privilegeProblem(err: unknown, role: string): unknown {
  if ((err as { code?: string }).code === '42501') {
    return new TradeledgerError('DB_READER', `the database user tradeledger connects as may not create or change the role "${role}" (${(err as Error).message})`, {
      kind: 'config', hint: 'Run it with a DATABASE_URL whose user has CREATEROLE and owns the tables (or is a superuser), or ask the database administrator to.',
    });
  }
  return err;
}
