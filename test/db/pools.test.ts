import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationName, createClient, createPool } from '../../src/db/pools.js';
import { sqlLiteral } from '../../src/db/sqlText.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });

const terminate = (name: string) => sql<{ ok: boolean }>`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
  WHERE datname = current_database() AND application_name = ${name}`.execute(fresh.db);

describe('src/db/pools.ts: the one place connections are made', () => {
  it('names a connection tradeledger-<name>, within the 63 bytes PostgreSQL keeps, and refuses a name it would mangle', () => {
    expect(applicationName('portal-download')).toBe('tradeledger-portal-download');
    expect(applicationName(`worker-registry-pool-${'a'.repeat(60)}`)).toHaveLength(63);
    expect(() => applicationName('Portal Download')).toThrow(/lower-case/);
    expect(() => createPool({ url: fresh.url, name: 'x', max: 0 })).toThrow(/max/);
  });

  it('a pool shows its name in pg_stat_activity and never opens more than its max', async () => {
    const pool = createPool({ url: fresh.url, name: 'pools-test-size', max: 2 });
    try {
      // Four statements at once on a pool of two: two sessions, the others wait their turn.
      await Promise.all(Array.from({ length: 4 }, () => pool.query('SELECT pg_sleep(0.2)')));
      const { rows: [r] } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'tradeledger-pools-test-size'`.execute(fresh.db);
      expect(r!.n).toBe(2);
    } finally {
      await pool.end();
    }
  });

  it('an idle pooled session the server ends does not crash the process: the error is told, and the pool connects again', async () => {
    const told: string[] = [];
    const pool = createPool({ url: fresh.url, name: 'pools-test-idle', max: 1, onError: (e) => told.push(e.message) });
    try {
      const before = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      expect((await terminate('tradeledger-pools-test-idle')).rows.some((r) => r.ok)).toBe(true);
      await waitFor(() => told.length > 0);
      expect(told[0]).toMatch(/terminat/);
      const after = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      expect(after).not.toBe(before);
    } finally {
      await pool.end();
    }
  });

  it('a held client the server ends does not crash the process either: its next query fails instead', async () => {
    const pool = createPool({ url: fresh.url, name: 'pools-test-held', max: 1 });
    const client = createClient({ url: fresh.url, name: 'pools-test-client' });
    try {
      const held = await pool.connect();
      await client.connect();
      const { rows: [me] } = await client.query<{ app: string }>("SELECT current_setting('application_name') AS app");
      expect(me!.app).toBe('tradeledger-pools-test-client');
      await terminate('tradeledger-pools-test-held');
      await terminate('tradeledger-pools-test-client');
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release(true);
      await expect(client.query('SELECT 1')).rejects.toThrow();
    } finally {
      await client.end().catch(() => undefined);
      await pool.end();
    }
  });

  it('no file in src/ but src/db/pools.ts constructs a pg Pool or Client, or hands a connection string to a library (the job engine)', async () => {
    const root = path.resolve(__dirname, '../../src');
    const offenders: string[] = [];
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const rel = path.relative(root, file);
      if (rel === path.join('db', 'pools.ts')) continue;
      const text = await readFile(file, 'utf8');
      if (/new\s+pg\.(Pool|Client)\b|connectionString/.test(text) || (/from 'pg'/.test(text) && /new\s+(Pool|Client)\s*\(/.test(text))) offenders.push(rel);
    }
    expect(offenders).toEqual([]);
  });
});

describe('every session runs in UTC, whatever zone the server is set to', () => {
  // A server's `timezone` is its sessions' default; initdb takes it from the machine (an embedded
  // server set up in India is at +05:30). In such a session date_trunc('hour', ts) lands on the
  // half hour, and the sync asked the sandbox for the candles of hours that do not exist.
  const probe = `SELECT current_setting('TimeZone') AS zone, current_setting('work_mem') AS work_mem,
    to_char(date_trunc('hour', '2024-01-01 10:10:00Z'::timestamptz) AT TIME ZONE 'UTC', 'HH24:MI') AS hour,
    '2024-01-02 03:04:05.678Z'::timestamptz AS at, interval '1 day 02:00' AS span, current_setting('standard_conforming_strings') AS scs`;
  const right = { at: new Date('2024-01-02T03:04:05.678Z'), span: { days: 1, hours: 2 }, scs: 'on' };
  let kolkata: string;
  beforeAll(async () => {
    const name = new URL(fresh.url).pathname.slice(1);
    await sql.raw(`ALTER DATABASE "${name}" SET timezone = 'Asia/Kolkata'`).execute(fresh.db);
    await sql.raw(`ALTER DATABASE "${name}" SET datestyle = 'SQL, DMY'`).execute(fresh.db);
    await sql.raw(`ALTER DATABASE "${name}" SET intervalstyle = 'sql_standard'`).execute(fresh.db);
    await sql.raw(`ALTER DATABASE "${name}" SET standard_conforming_strings = off`).execute(fresh.db);
    kolkata = fresh.url;
  });

  it('the premise: a plain session on that database is at +05:30 (its hours start at :30), and node-postgres misreads its times', async () => {
    const plain = new pg.Client({ connectionString: kolkata });
    await plain.connect();
    try {
      const { rows: [r] } = await plain.query(probe);
      expect(r).toMatchObject({ zone: 'Asia/Kolkata', hour: '09:30' });
      // DateStyle SQL, DMY: '02/01/2024 08:34:05.678 IST' is not a time node-postgres can read (null).
      expect(r.at instanceof Date && r.at.getTime() === right.at.getTime()).toBe(false);
      expect(r.span).not.toMatchObject(right.span);
      // and reads a backslash in a plain literal as an escape: sqlLiteral's 'a\' would not end there
      expect(r.scs).toBe('off');
    } finally {
      await plain.end();
    }
  });

  it('a pool and a client made here are UTC, in the ISO style node-postgres reads', async () => {
    const pool = createPool({ url: kolkata, name: 'pools-test-zone', max: 1 });
    const client = createClient({ url: kolkata, name: 'pools-test-zone' });
    await client.connect();
    try {
      expect((await pool.query(probe)).rows[0]).toMatchObject({ zone: 'UTC', hour: '10:00', ...right });
      expect((await client.query(probe)).rows[0]).toMatchObject({ zone: 'UTC', hour: '10:00', ...right });
      // A literal built as text (sqlText.ts) with a backslash in it reads back as written.
      const text = "C:\\new\\table's";
      expect((await pool.query(`SELECT ${sqlLiteral(text)} AS v`)).rows[0].v).toBe(text);
    } finally {
      await client.end();
      await pool.end();
    }
  });

  it('keeps the user\'s own startup options (the URL\'s or PGOPTIONS), and UTC wins over a zone given there', async () => {
    const url = new URL(kolkata);
    url.searchParams.set('options', '-c work_mem=3MB -c TimeZone=Asia/Tokyo');
    const pool = createPool({ url: url.toString(), name: 'pools-test-zone-options', max: 1 });
    try {
      expect((await pool.query(probe)).rows[0]).toMatchObject({ zone: 'UTC', work_mem: '3MB', hour: '10:00' });
    } finally {
      await pool.end();
    }
    const saved = process.env.PGOPTIONS;
    process.env.PGOPTIONS = '-c work_mem=5MB';
    const fromEnv = createClient({ url: kolkata, name: 'pools-test-zone-env' });
    try {
      await fromEnv.connect();
      expect((await fromEnv.query(probe)).rows[0]).toMatchObject({ zone: 'UTC', work_mem: '5MB', hour: '10:00' });
    } finally {
      if (saved === undefined) delete process.env.PGOPTIONS; else process.env.PGOPTIONS = saved;
      await fromEnv.end();
    }
    // No startup option of ours: PgBouncer before 1.20 refuses an `options` startup parameter
    // ("unsupported startup parameter: options"; it parses one from 1.20 on:
    // https://github.com/pgbouncer/pgbouncer/pull/908), so the settings are a SET after connecting.
    const plain = createClient({ url: fresh.url, name: 'pools-test-no-options' });
    expect((plain as unknown as { connectionParameters: { options?: string } }).connectionParameters.options).toBeUndefined();
  });
});

async function waitFor(ok: () => boolean): Promise<void> {
  // Bounded only to end a hang; the test asserts what happens, not how fast.
  for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
}
