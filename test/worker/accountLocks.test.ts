import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { holdSyncLock } from '../../src/extract/syncLock.js';
import { TradeledgerError } from '../../src/errors.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import { testSyncOptions } from '../support/testSync.js';

const env = sandboxWithDatabase();

describe('per-account sync locks', () => {
  it('lets a sync of account a run while another process syncs b, and refuses a sync of b', async () => {
    const [a, b] = sandboxAccounts(env.sandbox.accounts).filter((x) => x.kind !== 'demo');
    expect(a && b).toBeTruthy();
    // Another process (a worker) holds account b.
    const other = await holdSyncLock(env.fresh.db, [b!.uid!]);
    try {
      const ok = await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { accounts: [a!], sync: { streams: ['deposits'] } }));
      expect(ok.status).toBe('ok');
      const refused = await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { accounts: [b!], sync: { streams: ['deposits'] } })).then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(TradeledgerError);
      expect((refused as TradeledgerError).code).toBe('SYNC_RUNNING');
      expect((refused as TradeledgerError).message).toContain(`"${b!.name}"`);
      expect((refused as TradeledgerError).retryable, 'a worker retries it later').toBe(true);
      // A sync of both is refused as a whole, and leaves a's lock free again.
      const both = await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { accounts: [a!, b!], sync: { streams: ['deposits'] } })).then(() => undefined, (e: unknown) => e);
      expect((both as TradeledgerError).code).toBe('SYNC_RUNNING');
      const again = await holdSyncLock(env.fresh.db, [a!.uid!]);
      await again.release();
    } finally {
      await other.release();
    }
    const after = await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { accounts: [b!], sync: { streams: ['deposits'] } }));
    expect(after.status).toBe('ok');
    const runs = await sql<{ account_uids: string[]; status: string }>`SELECT account_uids, status FROM sync_runs ORDER BY id`.execute(env.fresh.db);
    expect(runs.rows).toEqual([{ account_uids: [a!.uid], status: 'ok' }, { account_uids: [b!.uid], status: 'ok' }]);
  });

  it('marks a run interrupted only once the process holding its lock is gone', async () => {
    const { rows: [live] } = await sql<{ id: string }>`INSERT INTO sync_runs (account_uids, backend_pid) VALUES (ARRAY['x'], pg_backend_pid()) RETURNING id::text`.execute(env.fresh.db);
    const { rows: [dead] } = await sql<{ id: string }>`INSERT INTO sync_runs (account_uids, backend_pid) VALUES (ARRAY['y'], 2147483000) RETURNING id::text`.execute(env.fresh.db);
    const [a] = sandboxAccounts(env.sandbox.accounts);
    await runSync(testSyncOptions(env.sandbox, env.fresh.db, [], { accounts: [a!], sync: { streams: ['deposits'] } }));
    const { rows } = await sql<{ id: string; status: string }>`SELECT id::text, status FROM sync_runs WHERE id IN (${live!.id}::bigint, ${dead!.id}::bigint) ORDER BY id`.execute(env.fresh.db);
    expect(rows).toEqual([{ id: live!.id, status: 'running' }, { id: dead!.id, status: 'interrupted' }]);
  });
});
