import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { testSyncOptions } from '../support/testSync.js';
import { diffAgainstTruth } from '../support/groundTruth.js';
import { waitFor } from '../support/workerProcesses.js';
import { runSync } from '../../src/extract/runSync.js';
import { holdSyncLock } from '../../src/extract/syncLock.js';
import { openRun } from '../../src/extract/syncRunRecord.js';
import { checkpointStatement } from '../../src/extract/syncState.js';
import { poolOf } from '../../src/db/createDb.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import type { SyncEvent } from '../../src/extract/syncEvent.js';

// One account with 4,000 deposits at the real rate limit (10 requests/s, 100 a page): a sync
// takes about four seconds, so its lock can be taken from under it half-way.
let sandbox: RunningSandbox;
let fresh: FreshDatabase;

beforeAll(async () => {
  sandbox = await startTestSandbox({ scale: 'deposits=4000', accounts: 1, rateLimit: true });
  fresh = await freshDatabase();
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
});

const key = (account: string) => ({ account, stream: 'deposits', partition: 'fence-test' });
const writeCheckpoint = (account: string, runId: string) => {
  const cp = checkpointStatement(key(account), { watermark: Date.now(), window: undefined, status: 'running', runId });
  return poolOf(fresh.db).query(cp.text, cp.params);
};
const terminate = (pid: number) => sql`SELECT pg_terminate_backend(${pid}::int, 10000)`.execute(fresh.db);

describe('fencing tokens on account locks', () => {
  it('refuses the writes of a run whose lock connection died, and of a run another run took the account from', async () => {
    const uid = 'fence-u1';
    const a = await holdSyncLock(fresh.db, [uid]);
    let b: Awaited<ReturnType<typeof holdSyncLock>> | undefined;
    try {
      const runA = await openRun(fresh.db, {}, { accountUids: [uid], backendPid: a.backendPid });
      expect(await a.claim(runA)).toEqual({ [uid]: 1 });
      await writeCheckpoint(uid, runA);

      // A's lock connection dies (a restart, a terminated backend); nobody has taken the account yet.
      await terminate(a.backendPid);
      await expect(writeCheckpoint(uid, runA)).rejects.toMatchObject({ code: 'TLF01', message: expect.stringMatching(/connection holding it .* is gone/) });
      await waitFor('the lock to notice its connection closed', async () => { try { a.assertHeld(); return false; } catch { return true; } }, 10_000);
      expect(() => a.assertHeld()).toThrow(expect.objectContaining({ code: 'SYNC_LOCK_LOST', retryable: true }));

      // B takes the lock and a higher token; A's writes stay refused, B's go through.
      b = await holdSyncLock(fresh.db, [uid]);
      const runB = await openRun(fresh.db, {}, { accountUids: [uid], backendPid: b.backendPid });
      expect(await b.claim(runB)).toEqual({ [uid]: 2 });
      await expect(writeCheckpoint(uid, runA)).rejects.toMatchObject({ code: 'TLF01', message: expect.stringMatching(/run \d+ took it over \(fencing token 2\)/) });
      await writeCheckpoint(uid, runB);

      const runs = await sql<{ id: string; fence_tokens: unknown }>`SELECT id::text, fence_tokens FROM sync_runs WHERE id IN (${runA}::bigint, ${runB}::bigint) ORDER BY id`.execute(fresh.db);
      expect(runs.rows).toEqual([{ id: runA, fence_tokens: { [uid]: 1 } }, { id: runB, fence_tokens: { [uid]: 2 } }]);
      // Writes outside any run (no run id) are not fenced.
      await poolOf(fresh.db).query(`UPDATE sync_state SET last_run_id = NULL WHERE account_uid = $1`, [uid]);
    } finally {
      await a.release();
      await b?.release();
    }
  });

  it('stops a sync whose lock is lost half-way before its next write; the next sync ends at the ground truth', async () => {
    const [account] = sandboxAccounts(sandbox.accounts).filter((x) => x.kind !== 'demo');
    const uid = account!.uid!;
    const count = async () => Number((await sql<{ n: string }>`SELECT count(*)::text AS n FROM deposits WHERE account_uid = ${uid}`.execute(fresh.db)).rows[0]!.n);
    const events: SyncEvent[] = [];
    const options = (ev: SyncEvent[]) => testSyncOptions(sandbox, fresh.db, ev, {
      accounts: [account!], sync: { streams: ['deposits'], parallelWindows: 1 },
      client: { safetyFactor: 0.8, maxRetries: 8, retryBaseMs: 5, timeoutMs: 10_000, rateLimit: true, maxClockSkewMs: 60_000 },
    });
    let atKill: number | undefined;
    const killed = (async () => {
      await waitFor('the first committed pages', async () => (await count()) >= 200, 60_000);
      const { rows: [run] } = await sql<{ backend_pid: number }>`SELECT backend_pid FROM sync_runs WHERE status = 'running' ORDER BY id DESC LIMIT 1`.execute(fresh.db);
      await terminate(run!.backend_pid);
      atKill = await count();
    })();
    const first = await runSync(options(events));
    await killed;
    const atEnd = await count();

    // The run noticed and stopped: failed with SYNC_LOCK_LOST, not 'ok' with every deposit.
    expect(first.status).toBe('failed');
    // Its partitions stopped for the lock: noticed by the process (the lock's connection was
    // terminated: a lost connection, exit 4) or refused by the fence (SYNC_LOCK_LOST).
    expect(first.errors.length).toBeGreaterThan(0);
    for (const e of first.errors) {
      expect(['DB_CONNECTION_LOST', 'SYNC_LOCK_LOST']).toContain(e.code);
      expect(e.message).toMatch(/lost (its account lock|the lock of account)/);
    }
    // At most the batch already under way when the lock died (one lane: at most 1,000 rows) went in after.
    expect(atEnd - atKill!).toBeLessThanOrEqual(1000);
    expect(atEnd).toBeLessThan(4000);

    const second = await runSync(options([]));
    expect(second.status).toBe('ok');
    const { differences, compared } = await diffAgainstTruth(sandbox, fresh.db, [uid], ['deposits']);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(4000);
    const tokens = await sql<{ status: string; fence_tokens: Record<string, number> }>`SELECT status, fence_tokens FROM sync_runs WHERE account_uids @> ARRAY[${uid}]::text[] ORDER BY id`.execute(fresh.db);
    expect(tokens.rows).toEqual([{ status: 'failed', fence_tokens: { [uid]: 1 } }, { status: 'ok', fence_tokens: { [uid]: 2 } }]);
  }, 120_000);
});
