import { sql } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/databaseTypes.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });

type Tables = keyof Database;
/** true when the column's TypeScript type admits null. */
type NullableIn<T extends Tables, C extends keyof Selectable<Database[T]>> = null extends Selectable<Database[T]>[C] ? true : false;
/** true when an insert may leave the column out (it has a default, or is nullable). */
type OptionalIn<T extends Tables, C extends keyof Selectable<Database[T]>> = C extends keyof Insertable<Database[T]>
  ? (Pick<Insertable<Database[T]>, C> extends Required<Pick<Insertable<Database[T]>, C>> ? false : true)
  : true;

/** Each column as PostgreSQL declares it; the compiler demands exactly the columns of Database, with their nullability. */
type Expected = {
  [T in Tables]: {
    [C in keyof Selectable<Database[T]>]: { type: string; nullable: NullableIn<T, C & keyof Selectable<Database[T]>>; optional: OptionalIn<T, C & keyof Selectable<Database[T]>> }
  };
};

const int8 = 'bigint';
const tstz = 'timestamp with time zone';
const expected: Expected = {
  accounts: {
    uid: { type: 'text', nullable: false, optional: false },
    name: { type: 'text', nullable: false, optional: false },
    kind: { type: 'text', nullable: false, optional: false },
    parent_uid: { type: 'text', nullable: true, optional: true },
    added_at: { type: tstz, nullable: false, optional: true },
  },
  ledger_corrections: {
    id: { type: int8, nullable: false, optional: true },
    account_uid: { type: 'text', nullable: false, optional: false },
    wallet: { type: 'text', nullable: false, optional: false },
    source: { type: 'text', nullable: false, optional: false },
    source_id: { type: 'text', nullable: false, optional: false },
    leg: { type: 'text', nullable: false, optional: false },
    classification: { type: 'text', nullable: true, optional: true },
    other_side: { type: 'text', nullable: true, optional: true },
    price: { type: 'numeric', nullable: true, optional: true },
    price_currency: { type: 'text', nullable: true, optional: true },
    price_source: { type: 'text', nullable: true, optional: true },
    why: { type: 'text', nullable: false, optional: false },
    set_by: { type: 'text', nullable: false, optional: false },
    set_at: { type: tstz, nullable: false, optional: true },
    replaces: { type: int8, nullable: true, optional: true },
    replaced_by: { type: int8, nullable: true, optional: true },
    undone_by: { type: 'text', nullable: true, optional: true },
    undone_at: { type: tstz, nullable: true, optional: true },
    undo_why: { type: 'text', nullable: true, optional: true },
  },
  portal_access_denied: {
    id: { type: int8, nullable: false, optional: true },
    at: { type: tstz, nullable: false, optional: false },
    user_id: { type: int8, nullable: true, optional: true },
    username: { type: 'text', nullable: true, optional: true },
    address: { type: 'text', nullable: true, optional: true },
    method: { type: 'text', nullable: false, optional: false },
    path: { type: 'text', nullable: false, optional: false },
    account_uid: { type: 'text', nullable: true, optional: true },
    status: { type: 'integer', nullable: false, optional: false },
    reason: { type: 'text', nullable: true, optional: true },
  },
  portal_downloads: {
    id: { type: int8, nullable: false, optional: true },
    at: { type: tstz, nullable: false, optional: false },
    user_id: { type: int8, nullable: false, optional: false },
    username: { type: 'text', nullable: false, optional: false },
    address: { type: 'text', nullable: true, optional: true },
    account_uid: { type: 'text', nullable: false, optional: false },
    format: { type: 'text', nullable: false, optional: false },
    period_from: { type: 'date', nullable: false, optional: false },
    period_to: { type: 'date', nullable: false, optional: false },
    tz: { type: 'text', nullable: false, optional: false },
    file: { type: 'text', nullable: false, optional: false },
    bytes: { type: int8, nullable: false, optional: false },
    sha256: { type: 'text', nullable: false, optional: false },
    complete: { type: 'boolean', nullable: false, optional: false },
  },
  portal_grants: {
    user_id: { type: int8, nullable: false, optional: false },
    account_uid: { type: 'text', nullable: false, optional: false },
    granted_at: { type: tstz, nullable: false, optional: true },
  },
  portal_login_failures: {
    id: { type: int8, nullable: false, optional: true },
    username: { type: 'text', nullable: false, optional: false },
    address: { type: 'text', nullable: false, optional: false },
    failed_at: { type: tstz, nullable: false, optional: false },
  },
  portal_sessions: {
    id: { type: int8, nullable: false, optional: true },
    token_hash: { type: 'bytea', nullable: false, optional: false },
    user_id: { type: int8, nullable: false, optional: false },
    created_at: { type: tstz, nullable: false, optional: false },
    last_seen_at: { type: tstz, nullable: false, optional: false },
    expires_at: { type: tstz, nullable: false, optional: false },
    absolute_expires_at: { type: tstz, nullable: false, optional: false },
    revoked_at: { type: tstz, nullable: true, optional: true },
    address: { type: 'text', nullable: true, optional: true },
    user_agent: { type: 'text', nullable: true, optional: true },
  },
  portal_users: {
    id: { type: int8, nullable: false, optional: true },
    username: { type: 'text', nullable: false, optional: false },
    password_hash: { type: 'text', nullable: false, optional: false },
    role: { type: 'text', nullable: false, optional: false },
    created_at: { type: tstz, nullable: false, optional: true },
    password_changed_at: { type: tstz, nullable: false, optional: true },
  },
  sync_job_failures: {
    id: { type: int8, nullable: false, optional: true },
    account_uid: { type: 'text', nullable: false, optional: false },
    account_name: { type: 'text', nullable: false, optional: false },
    job_id: { type: 'text', nullable: true, optional: true },
    code: { type: 'text', nullable: false, optional: false },
    message: { type: 'text', nullable: false, optional: false },
    failed_at: { type: tstz, nullable: false, optional: true },
  },
  sync_runs: {
    id: { type: int8, nullable: false, optional: true },
    started_at: { type: tstz, nullable: false, optional: true },
    finished_at: { type: tstz, nullable: true, optional: true },
    status: { type: 'text', nullable: false, optional: true },
    options: { type: 'jsonb', nullable: false, optional: true },
    counts: { type: 'jsonb', nullable: false, optional: true },
    errors: { type: 'jsonb', nullable: false, optional: true },
    gaps: { type: 'jsonb', nullable: false, optional: true },
    account_uids: { type: 'ARRAY', nullable: true, optional: true },
    backend_pid: { type: 'integer', nullable: true, optional: true },
    fence_tokens: { type: 'jsonb', nullable: true, optional: true },
  },
  sync_workers: {
    pool_id: { type: 'text', nullable: false, optional: false },
    host: { type: 'text', nullable: false, optional: false },
    pid: { type: 'integer', nullable: false, optional: false },
    backend_pid: { type: 'integer', nullable: true, optional: true },
    concurrency: { type: 'integer', nullable: false, optional: false },
    started_at: { type: tstz, nullable: false, optional: true },
    heartbeat_at: { type: tstz, nullable: false, optional: true },
  },
};

describe('src/db/databaseTypes.ts against a migrated database', () => {
  it('every table of Database has exactly its columns, with their types, NULLs and defaults', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: 'YES' | 'NO'; has_default: boolean }>`
      SELECT table_name, column_name, data_type, is_nullable, column_default IS NOT NULL AS has_default
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ANY(${Object.keys(expected)}::text[])
      ORDER BY table_name, ordinal_position`.execute(fresh.db);
    const actual: Record<string, Record<string, { type: string; nullable: boolean; optional: boolean }>> = {};
    for (const r of rows) {
      (actual[r.table_name] ??= {})[r.column_name] = { type: r.data_type, nullable: r.is_nullable === 'YES', optional: r.is_nullable === 'YES' || r.has_default };
    }
    const sorted = (o: Record<string, Record<string, unknown>>) => Object.fromEntries(Object.keys(o).sort().map((t) => [t, Object.fromEntries(Object.keys(o[t]!).sort().map((c) => [c, o[t]![c]]))]));
    expect(sorted(actual)).toEqual(sorted(expected as unknown as Record<string, Record<string, unknown>>));
  });
});
