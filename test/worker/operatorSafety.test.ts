import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { workerConnections } from '../../src/worker/workerConnections.js';
import { emptyDatabase, freshDatabase, type FreshDatabase } from '../support/database.js';
import { runCli } from '../support/runCli.js';

// A worker is one of a fleet sharing one PostgreSQL: it must not quietly start a private embedded
// database, and its connection budget must fit the server it is pointed at.
describe('worker and enqueue: operator safety', () => {
  let fresh: FreshDatabase;
  let dir: string;
  let config: string;
  beforeAll(async () => {
    fresh = await freshDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'tl-worker-safety-'));
    config = path.join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ baseUrl: 'http://127.0.0.1:9', accounts: [{ name: 'a', uid: '1001', apiKeyEnv: 'K', secretEnv: 'S', passphraseEnv: 'P' }] }));
  });
  afterAll(async () => {
    await fresh?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const command of ['worker', 'enqueue']) {
    it(`${command} without DATABASE_URL is refused before any database starts`, async () => {
      const dataDir = path.join(dir, `pg-${command}`);
      const r = await runCli([command, '--config', config], { K: 'k', S: 's', P: 'p', TRADELEDGER_DATA_DIR: dataDir });
      expect(r.code).toBe(exitCodes.configOrAuth);
      expect(r.stderr).toContain(`tradeledger ${command} needs DATABASE_URL`);
      expect(r.stderr).toMatch(/fix: Set DATABASE_URL to the shared server/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(dataDir), 'no embedded server was set up').toBe(false);
    });
  }

  it('the budget is the documented formula, min(60, 12c + 2) + 3 + (c + 2) + 2 + 1', () => {
    expect(workerConnections(1).total).toBe(14 + 3 + 3 + 2 + 1);
    expect(workerConnections(4)).toEqual({ sync: 50, rates: 3, engine: 6, utilities: 2, registry: 1, total: 62 });
    expect(workerConnections(12).total).toBe(60 + 3 + 14 + 2 + 1);
  });

  it('a worker whose budget cannot fit max_connections is refused, naming the concurrency that fits', async () => {
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    const { rows: [s] } = await client.query<{ max: string; reserved: string }>(`SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS reserved`);
    await client.end();
    const usable = Number(s!.max) - Number(s!.reserved);
    const tooMany = Array.from({ length: 64 }, (_, i) => i + 1).find((c) => workerConnections(c).total > usable);
    expect(tooMany, `max_connections ${s!.max} fits every concurrency up to 64`).toBeDefined();
    const r = await runCli(['worker', '--config', config, '--concurrency', String(tooMany)], { K: 'k', S: 's', P: 'p', DATABASE_URL: fresh.url });
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toContain(`a worker at concurrency ${tooMany} may open ${workerConnections(tooMany!).total} connections`);
    expect(r.stderr).toMatch(new RegExp(`fix: Use --concurrency ${tooMany! - 1} or less here`));
  });

  it('a user whose CONNECTION LIMIT is lower than max_connections is held to that limit', async () => {
    // Before, only max_connections was counted: a worker under a 30-connection user started, and
    // its pools then met "too many connections for role" mid-sync.
    const role = `tl_worker_limit_${Math.random().toString(36).slice(2, 8)}`;
    const password = `pw-${Math.random().toString(36).slice(2)}-long`;
    // A database of its own, owned by that user: a member of the admin role would count as an
    // analysts' reader on every test database (db reader list) while it exists.
    const own = await emptyDatabase();
    const admin = new pg.Client({ connectionString: own.url });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}' CONNECTION LIMIT 30; ALTER DATABASE "${new URL(own.url).pathname.slice(1)}" OWNER TO ${role}`);
      const u = new URL(own.url);
      u.username = role;
      u.password = password;
      // concurrency 1 needs 23 (fits 30); 2 needs 36 (does not)
      expect([workerConnections(1).total, workerConnections(2).total]).toEqual([23, 36]);
      const r = await runCli(['worker', '--config', config, '--concurrency', '2'], { K: 'k', S: 's', P: 'p', DATABASE_URL: u.toString() });
      expect(r.stderr).toContain('a worker at concurrency 2 may open 36 connections');
      expect(r.stderr).toContain('more than this user\'s CONNECTION LIMIT 30');
      expect(r.stderr).toContain('fix: Use --concurrency 1 or less here, or raise the user\'s limit (ALTER ROLE name CONNECTION LIMIT -1)');
      expect(r.code).toBe(exitCodes.configOrAuth);
    } finally {
      await admin.end();
      await own.drop();
      const cleanup = new pg.Client({ connectionString: fresh.url });
      await cleanup.connect();
      await cleanup.query(`DROP ROLE IF EXISTS ${role}`).catch(() => {});
      await cleanup.end();
    }
  });
});
