import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { createDb } from '../../src/db/createDb.js';
import { migrate } from '../../src/db/migrate.js';
import { embeddedServerOptions } from '../../src/db/embeddedServerOptions.js';
import type { EmbeddedServerOptions } from '../../src/db/embeddedServerOptions.js';
import { ensureEmbeddedServer } from '../../src/db/ensureEmbeddedServer.js';
import { stopEmbeddedServer } from '../../src/db/stopEmbeddedServer.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runCli } from '../support/runCli.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { writeFirmConfig } from '../support/firmConfig.js';
import { jobsLeft, startWorker, stopWorkers, waitFor } from '../support/workerProcesses.js';
import type { WorkerProcess } from '../support/workerProcesses.js';

// The operator's drill of issue 23: three workers sync a firm on a PostgreSQL of the test's own,
// the server restarts under them (a fast shutdown ends every session, as a failover or a
// `systemctl restart postgresql` does), and a replacement worker starts late. Six accounts of
// 4,000 deposits at the real rate limits: a sync takes about four seconds, so the restart lands
// in the middle of several.
const streams = ['deposits', 'transfers'];
let sandbox: RunningSandbox;
let options: EmbeddedServerOptions;
let url: string;
let db: Kysely<any>;
let workers: WorkerProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'deposits=4000,transfers=200', accounts: 6, rateLimit: true });
  const dir = await mkdtemp(join(tmpdir(), 'tl-drill-'));
  // mkdtemp makes it 0700; as root the server runs as "postgres", which must enter it.
  await chmod(dir, 0o755);
  options = embeddedServerOptions({ dataDir: join(dir, 'pg'), port: await freePort(), fast: true, env: {} });
  url = (await ensureEmbeddedServer(options)).url();
  await migrate(url);
  db = createDb(url, { name: 'drill', maxConnections: 3 });
  // The drill's own observer: every checkpoint commit (pages commit with theirs), by run and time.
  await sql`CREATE TABLE drill_writes (run_id bigint, account_uid text, at timestamptz DEFAULT clock_timestamp())`.execute(db);
  await sql.raw(`CREATE FUNCTION drill_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO drill_writes (run_id, account_uid) VALUES (NEW.last_run_id, NEW.account_uid); RETURN NEW; END $$`).execute(db);
  await sql`CREATE TRIGGER drill_write AFTER INSERT OR UPDATE ON sync_state FOR EACH ROW EXECUTE FUNCTION drill_write()`.execute(db);
  await sql`CREATE TRIGGER drill_write AFTER INSERT OR UPDATE ON sync_windows FOR EACH ROW EXECUTE FUNCTION drill_write()`.execute(db);
}, 300_000);
afterAll(async () => {
  await stopWorkers(workers);
  await db?.destroy();
  await sandbox?.close();
  if (options) {
    await stopEmbeddedServer(options).catch(() => {});
    await rm(join(options.dataDir, '..'), { recursive: true, force: true });
  }
});

describe('a PostgreSQL restart under three workers, and a late replacement worker', () => {
  it('never lets two runs write one account, frees no live worker\'s job, and ends at the ground truth', async () => {
    const { file, env, accounts } = writeFirmConfig(sandbox, {
      sync: { safetyLagSeconds: 0, streams, since: new Date(sandbox.world.now() - 731 * 86_400_000).toISOString() },
      client: { safetyFactor: 0.8 },
      // Heartbeat and sweep every second, dead after 5 s of silence (production: 10 s, 15 s, 60 s).
      worker: { sweepSeconds: 1, heartbeatSeconds: 1, staleSeconds: 5 },
    });
    const cliEnv = { ...env, DATABASE_URL: url };
    const queued = await runCli(['enqueue', '--config', file], cliEnv);
    expect(queued.code, queued.stderr).toBe(0);
    workers = [0, 1, 2].map(() => startWorker(file, cliEnv, 1));

    // Restart once at least two accounts are half synced.
    const count = async (uid: string) => Number((await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits WHERE account_uid = ${uid}`.execute(db)).rows[0]!.n);
    await waitFor('two syncs half done', async () => {
      const { rows } = await sql<{ uid: string }>`SELECT substr(queue_name, length('tradeledger:account:') + 1) AS uid FROM graphile_worker.jobs WHERE locked_by IS NOT NULL`.execute(db);
      let half = 0;
      for (const r of rows) { const n = await count(r.uid); if (n >= 200 && n < 3600) half++; }
      return half >= 2;
    }, 120_000);
    const runningAtRestart = (await sql<{ id: string }>`SELECT id::text FROM sync_runs WHERE status = 'running'`.execute(db)).rows.map((r) => r.id);
    expect(runningAtRestart.length).toBeGreaterThanOrEqual(2);
    expect(await stopEmbeddedServer(options)).toBe(true);
    await ensureEmbeddedServer(options);

    // The replacement worker starts as soon as the server is back.
    const late = startWorker(file, cliEnv, 1);
    workers.push(late);
    await waitFor('every job to finish', async () => (await jobsLeft(db).catch(() => [{}])).length === 0, 240_000);
    const results = await stopWorkers(workers);
    for (const r of results) expect(r.code, r.stderr.slice(-800)).toBe(0);

    // Every promise checked, then asserted together, so a failing drill shows all it broke.
    const broken: string[] = [];
    // Nobody was dead: no worker freed another's job (the late one used to free all three).
    const events = workers.flatMap((w) => w.events());
    for (const e of events.filter((x) => x.type === 'dead-workers-freed')) broken.push(`live workers called dead and their jobs freed: ${JSON.stringify(e.pools)}`);
    // Each account's job was done once.
    const done = events.filter((e) => e.type === 'job-done').map((e) => String(e.uid));
    for (const a of accounts) {
      const n = done.filter((u) => u === a.uid).length;
      if (n !== 1) broken.push(`${a.name}: job-done logged ${n} times`);
    }

    // Per account: fencing tokens rise with the run ids, one run ends ok, and the commits of the
    // account's runs never interleave: once a later run has written, no earlier run writes again.
    const runs = (await sql<{ id: string; uid: string; status: string; token: string | null; started: Date; finished: Date | null; errors: { code: string }[] }>`
      SELECT r.id::text, u.uid, r.status, r.fence_tokens ->> u.uid AS token, r.started_at AS started, r.finished_at AS finished, r.errors
      FROM sync_runs r, unnest(r.account_uids) AS u(uid) ORDER BY u.uid, r.id`.execute(db)).rows;
    for (const a of accounts) {
      const mine = runs.filter((r) => r.uid === a.uid);
      const tokens = mine.map((r) => (r.token === null ? NaN : Number(r.token)));
      for (let i = 1; i < tokens.length; i++) if (!(tokens[i]! > tokens[i - 1]!)) broken.push(`${a.name}: fencing tokens ${tokens.join(', ')} do not rise with the runs`);
      const ok = mine.filter((r) => r.status === 'ok');
      if (ok.length !== 1) broken.push(`${a.name}: ${ok.length} runs ended ok`);
      for (let i = 1; i < ok.length; i++) if (ok[i]!.started < ok[i - 1]!.finished!) broken.push(`${a.name}: ok runs ${ok[i - 1]!.id} and ${ok[i]!.id} overlap in time`);
      const writes = (await sql<{ run_id: string }>`SELECT run_id::text FROM drill_writes WHERE account_uid = ${a.uid} AND run_id IS NOT NULL ORDER BY at`.execute(db)).rows.map((w) => Number(w.run_id));
      for (let i = 1; i < writes.length; i++) if (writes[i]! < writes[i - 1]!) broken.push(`${a.name}: run ${writes[i]} wrote after run ${writes[i - 1]} had`);
    }
    // The runs the restart cut short ended failed (their lock or connection lost), not ok.
    const cut = runs.filter((r) => runningAtRestart.includes(r.id));
    for (const r of cut) if (r.status === 'ok') broken.push(`run ${r.id} was running at the restart and still ended ok`);
    console.info(`restart drill: ${runs.length} runs (${runs.filter((r) => r.status === 'ok').length} ok), ${cut.length} running at the restart ended ${JSON.stringify(cut.map((r) => [r.status, [...new Set(r.errors.map((e) => e.code))]]))}, ${sandbox.stats.total429} x 429`);
    expect(broken).toEqual([]);

    const { differences, compared } = await diffAgainstTruth(sandbox, db, accounts.map((a) => a.uid), streams);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(6 * 4000);
  }, 400_000);
});
