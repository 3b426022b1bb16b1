import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portInUse } from '../../src/db/portInUse.js';
import { TradeledgerError } from '../../src/errors.js';
import { embeddedServerOptions } from '../../src/db/embeddedServerOptions.js';
import { ensureEmbeddedServer } from '../../src/db/ensureEmbeddedServer.js';
import { findEmbeddedServer } from '../../src/db/embeddedServer.js';
import { stopEmbeddedServer } from '../../src/db/stopEmbeddedServer.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '../../bin/tradeledger.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tl-embedded-'));
  // mkdtemp makes it 0700; as root the server runs as "postgres", which must enter it.
  await chmod(dir, 0o755);
  return join(dir, 'pg');
}

async function scalar(url: string, text: string): Promise<unknown> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Object.values((await c.query(text)).rows[0] ?? {})[0];
  } finally {
    await c.end();
  }
}

describe('the embedded PostgreSQL', () => {
  let dataDir: string;
  let port: number;
  const cli = (...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TRADELEDGER_DATA_DIR: dataDir, TRADELEDGER_PG_PORT: String(port) };
    delete env.DATABASE_URL;
    return run(process.execPath, [bin, ...args], { env, timeout: 120_000 });
  };

  beforeAll(async () => {
    dataDir = await tempDataDir();
    port = await freePort();
  });
  afterAll(async () => {
    await stopEmbeddedServer({ dataDir }).catch(() => {});
    await rm(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('starts from nothing: initialises a cluster, starts the server, creates the tradeledger database', async () => {
    const server = await ensureEmbeddedServer(embeddedServerOptions({ dataDir, port }));
    expect(server.startedNow).toBe(true);
    expect(server.port).toBe(port);
    expect(await scalar(server.url(), 'SELECT current_database()')).toBe('tradeledger');
    expect(String(await scalar(server.url(), 'SHOW server_version'))).toMatch(/^\d+\.\d+/);
    if (process.getuid?.() === 0) {
      // PostgreSQL refuses root, so the cluster belongs to another user.
      expect((await stat(join(dataDir, 'cluster'))).uid).not.toBe(0);
    }
  });

  it('is reused, not restarted, by later callers, even concurrent ones', async () => {
    const first = await findEmbeddedServer({ dataDir });
    const again = await Promise.all([1, 2, 3].map(() => ensureEmbeddedServer(embeddedServerOptions({ dataDir, port }))));
    expect(again.map((s) => [s.pid, s.startedNow])).toEqual([1, 2, 3].map(() => [first?.pid, false]));
  });

  it('prints a URL with `db url` that psql connects with', async () => {
    const { stdout } = await cli('db', 'url');
    const url = stdout.trim();
    expect(url).toMatch(new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${port}/tradeledger$`));
    const psql = await run('psql', [url, '-XAtc', 'SELECT current_database()']).catch(() => undefined);
    const answer = psql ? psql.stdout.trim() : await scalar(url, 'SELECT current_database()');
    expect(answer).toBe('tradeledger');
  });

  it('migrates and reports status through the CLI', async () => {
    const migrated = await cli('db', 'migrate');
    expect(migrated.stdout).toMatch(/applied 0001_schema_migrations\.sql/);
    const status = await cli('db', 'status');
    expect(status.stdout).toMatch(/version: +PostgreSQL \d+/);
    expect(status.stdout).toMatch(/migrations: \d+ applied .*, 0 pending/);
    expect(status.stdout).toMatch(/schema_migrations +\d+/);
  });

  it('stops with `db stop`, keeps the data, and starts again on demand', async () => {
    const before = await findEmbeddedServer({ dataDir });
    await scalar(before!.url(), 'CREATE TABLE kept AS SELECT 7 AS x');
    const { stdout } = await cli('db', 'stop');
    expect(stdout).toMatch(/^stopped/);
    expect(await findEmbeddedServer({ dataDir })).toBeUndefined();
    expect(await stopEmbeddedServer({ dataDir })).toBe(false);
    const after = await ensureEmbeddedServer(embeddedServerOptions({ dataDir, port }));
    expect(after.startedNow).toBe(true);
    expect(await scalar(after.url(), 'SELECT x FROM kept')).toBe(7);
  });

  it('refuses a port another program holds, naming the port and the fix', async () => {
    const busy = await freePort();
    const blocker: Server = await new Promise((resolve) => { const s = createServer().listen(busy, '127.0.0.1', () => resolve(s)); });
    try {
      const other = await tempDataDir();
      const err = await ensureEmbeddedServer(embeddedServerOptions({ dataDir: other, port: busy })).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(TradeledgerError);
      expect((err as TradeledgerError).code).toBe('DB_PORT_IN_USE');
      expect((err as TradeledgerError).message).toContain(String(busy));
      // It named `tradeledger db start --port` (no such command) and 54330 whether free or not.
      const hint = (err as TradeledgerError).hint ?? '';
      const named = Number(/TRADELEDGER_PG_PORT=(\d+) \(free now\)/.exec(hint)?.[1]);
      expect(named, hint).toBeGreaterThan(busy);
      expect(await portInUse(named)).toBe(false);
      expect(hint).not.toMatch(/db start/);
      await rm(join(other, '..'), { recursive: true, force: true });
    } finally {
      blocker.close();
    }
  });

  it('rejects port 5432 and non-ports with a config error', () => {
    for (const bad of ['5432', 'abc', '80', '70000']) {
      expect(() => embeddedServerOptions({ port: bad })).toThrow(TradeledgerError);
    }
    expect(embeddedServerOptions({ env: { TRADELEDGER_PG_PORT: '54400', TRADELEDGER_DATA_DIR: '/x/y' } })).toMatchObject({ port: 54400, dataDir: '/x/y' });
  });
});

describe('two commands starting the same new embedded server at once', () => {
  let dataDir: string;
  afterAll(async () => {
    await stopEmbeddedServer({ dataDir }).catch(() => {});
    await rm(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('end up with one server: one starts it, the other reuses it', async () => {
    dataDir = await tempDataDir();
    const options = embeddedServerOptions({ dataDir, port: await freePort() });
    const [a, b] = await Promise.all([ensureEmbeddedServer(options), ensureEmbeddedServer(options)]);
    expect(a.pid).toBe(b.pid);
    expect([a.startedNow, b.startedNow].sort()).toEqual([false, true]);
  });
});
