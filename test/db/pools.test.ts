import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationName, createClient, createPool } from '../../src/db/pools.js';
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

async function waitFor(ok: () => boolean): Promise<void> {
  // Bounded only to end a hang; the test asserts what happens, not how fast.
  for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
}
