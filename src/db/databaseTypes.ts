import type { ColumnType } from 'kysely';

/**
 * The app's own tables that TypeScript reads or writes through Kysely's query builder, as pg
 * hands their values over (its defaults, kept on purpose): `bigint` and `numeric` as strings (an
 * amount never becomes a JS number), `timestamptz` as a Date, `bytea` as a Buffer, `jsonb`
 * parsed. A jsonb column is written as JSON text (pg would send a JS array as a PostgreSQL
 * array). A column with a default is `Defaulted<...>` (optional on insert), one that may be
 * NULL `Nullable<...>` (Kysely does not look into `ColumnType | null` or `Generated<ColumnType>`).
 *
 * The record tables the sync writes, the views and the report queries are not here: the loader
 * builds its statements itself (src/load/), and reports are plain SQL files (reports/).
 * test/db/databaseTypes.test.ts checks every table and column here against a migrated database
 * (sql/schema/tables/ is what each table is now).
 */
export interface Database {
  accounts: AccountsTable;
  ledger_corrections: LedgerCorrectionsTable;
  portal_access_denied: PortalAccessDeniedTable;
  portal_downloads: PortalDownloadsTable;
  portal_grants: PortalGrantsTable;
  portal_login_failures: PortalLoginFailuresTable;
  portal_sessions: PortalSessionsTable;
  portal_users: PortalUsersTable;
  sync_job_failures: SyncJobFailuresTable;
  sync_runs: SyncRunsTable;
  sync_workers: SyncWorkersTable;
}

/** A column read as `S`, written (insert and update) from `W`. */
type Column<S, W = S> = ColumnType<S, W, W>;
/** A column with a default: optional on insert. */
export type Defaulted<C> = C extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<C, C | undefined, C>;
/** A column that may be NULL. */
export type Nullable<C> = C extends ColumnType<infer S, infer I, infer U> ? ColumnType<S | null, I | null, U | null> : C | null;

/** `bigint`: read as a string; written from a string, a safe integer or a bigint. */
export type Int8 = Column<string, string | number | bigint>;
/** `timestamp with time zone`: read as a Date; written from a Date or ISO text. */
export type Timestamp = Column<Date, Date | string>;
/** `date`: pg reads it as a Date at local midnight; written as `YYYY-MM-DD` text. */
export type DateColumn = ColumnType<Date, string, string>;
/** `numeric`: decimal text both ways, never a JS number. */
export type Numeric = Column<string>;
/** `jsonb`: read parsed (any value but SQL NULL: `{}`); written as JSON text (`JSON.stringify(value)`). */
export type Jsonb = ColumnType<NonNullable<unknown>, string, string>;

/** sql/schema/tables/accounts.sql */
export interface AccountsTable {
  uid: string;
  name: string;
  kind: 'main' | 'sub' | 'demo';
  parent_uid: string | null;
  added_at: Defaulted<Timestamp>;
}

/** sql/schema/tables/ledger_corrections.sql */
export interface LedgerCorrectionsTable {
  id: Defaulted<Int8>;
  account_uid: string;
  wallet: string;
  source: string;
  source_id: string;
  leg: string;
  classification: string | null;
  other_side: string | null;
  price: Nullable<Numeric>;
  price_currency: string | null;
  price_source: string | null;
  why: string;
  set_by: string;
  set_at: Defaulted<Timestamp>;
  replaces: Nullable<Int8>;
  replaced_by: Nullable<Int8>;
  undone_by: string | null;
  undone_at: Nullable<Timestamp>;
  undo_why: string | null;
}

/** sql/schema/tables/portal_access_denied.sql */
export interface PortalAccessDeniedTable {
  id: Defaulted<Int8>;
  at: Timestamp;
  user_id: Nullable<Int8>;
  username: string | null;
  address: string | null;
  method: string;
  path: string;
  account_uid: string | null;
  status: number;
  reason: string | null;
}

/** sql/schema/tables/portal_downloads.sql */
export interface PortalDownloadsTable {
  id: Defaulted<Int8>;
  at: Timestamp;
  user_id: Int8;
  username: string;
  address: string | null;
  account_uid: string;
  format: string;
  period_from: DateColumn;
  period_to: DateColumn;
  tz: string;
  file: string;
  bytes: Int8;
  sha256: string;
  complete: boolean;
}

/** sql/schema/tables/portal_grants.sql */
export interface PortalGrantsTable {
  user_id: Int8;
  account_uid: string;
  granted_at: Defaulted<Timestamp>;
}

/** sql/schema/tables/portal_login_failures.sql */
export interface PortalLoginFailuresTable {
  id: Defaulted<Int8>;
  username: string;
  address: string;
  failed_at: Timestamp;
}

/** sql/schema/tables/portal_sessions.sql: only the token's hash is stored. */
export interface PortalSessionsTable {
  id: Defaulted<Int8>;
  token_hash: Buffer;
  user_id: Int8;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  absolute_expires_at: Timestamp;
  revoked_at: Nullable<Timestamp>;
  address: string | null;
  user_agent: string | null;
}

/** sql/schema/tables/portal_users.sql */
export interface PortalUsersTable {
  id: Defaulted<Int8>;
  username: string;
  password_hash: string;
  role: 'admin' | 'accountant';
  created_at: Defaulted<Timestamp>;
  password_changed_at: Defaulted<Timestamp>;
}

/** sql/schema/tables/sync_job_failures.sql */
export interface SyncJobFailuresTable {
  id: Defaulted<Int8>;
  account_uid: string;
  account_name: string;
  job_id: string | null;
  code: string;
  message: string;
  failed_at: Defaulted<Timestamp>;
}

/** sql/schema/tables/sync_runs.sql */
export interface SyncRunsTable {
  id: Defaulted<Int8>;
  started_at: Defaulted<Timestamp>;
  finished_at: Nullable<Timestamp>;
  status: Defaulted<string>;
  options: Defaulted<Jsonb>;
  counts: Defaulted<Jsonb>;
  errors: Defaulted<Jsonb>;
  gaps: Defaulted<Jsonb>;
  account_uids: string[] | null;
  backend_pid: number | null;
  fence_tokens: Nullable<Jsonb>;
}

/** sql/schema/tables/sync_workers.sql */
export interface SyncWorkersTable {
  pool_id: string;
  host: string;
  pid: number;
  backend_pid: number | null;
  concurrency: number;
  started_at: Defaulted<Timestamp>;
  heartbeat_at: Defaulted<Timestamp>;
}
