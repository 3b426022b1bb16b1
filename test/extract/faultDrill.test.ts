import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runSync } from '../../src/extract/runSync.js';
import type { SyncResult } from '../../src/extract/runSync.js';
import { jsonLinesProgress } from '../../src/cli/progress/jsonLinesProgress.js';
import { diffAgainstTruth } from './groundTruth.js';
import { sandboxUids, testSyncOptions } from './testSync.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let log = '';
let result: SyncResult;

beforeAll(async () => {
  sandbox = await startTestSandbox({ faults: '5xx=0.10,429=0.05,drop=0.02,malformed=0.01' });
  fresh = await freshDatabase();
  const sink = new Writable({ write(chunk, _enc, done) { log += String(chunk); done(); } });
  const progress = jsonLinesProgress(sink);
  try {
    result = await runSync(testSyncOptions(sandbox, fresh.db, [], { emit: progress.sink }));
  } finally {
    progress.stop();
  }
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

describe('fault drill: 10% 5xx, 5% 429, 2% dropped connections, 1% malformed JSON', () => {
  it('retries through the faults and ends equal to the ground truth', async () => {
    const stats = await (await fetch(`${sandbox.baseUrl}/_sandbox/stats`)).json() as Record<string, unknown>;
    expect(JSON.stringify(stats)).toMatch(/fault|5\d\d|429/i);
    expect(log).toContain('"type":"retry"');
    expect(result.errors).toEqual([]);
    const { differences, compared } = await diffAgainstTruth(sandbox, fresh.db, sandboxUids(sandbox));
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  });

  it('leaves no secret or passphrase in the logs, the errors or the database', async () => {
    const secrets = sandbox.accounts.flatMap((a) => [a.secretKey, a.passphrase]);
    const { rows: tables } = await sql<{ t: string }>`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(fresh.db);
    let dump = '';
    for (const { t } of tables) {
      const { rows } = await sql<{ r: string }>`SELECT x::text AS r FROM ${sql.table(t)} x`.execute(fresh.db);
      dump += rows.map((r) => r.r).join('\n');
    }
    expect(dump.length).toBeGreaterThan(100_000);
    const errors = JSON.stringify(result);
    for (const s of secrets) {
      expect(log.includes(s), 'a secret in the log').toBe(false);
      expect(errors.includes(s), 'a secret in the errors').toBe(false);
      expect(dump.includes(s), 'a secret in the database').toBe(false);
    }
  });
});
