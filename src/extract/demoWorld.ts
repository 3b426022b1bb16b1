import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { TradeledgerError } from '../errors.js';

/**
 * Refuses a sync of accounts that are not the demo's into a database the demo filled (its runs
 * carry sync_runs.options.sandbox, cli/demoDatabase.ts): the README's first command fills the
 * embedded database with a sandbox world, and the same database is every later command's
 * default, so an operator's first real sync would otherwise put their books beside the demo's
 * made-up accounts, in every report of all accounts and the tax files made from them. Syncs of the
 * demo's own accounts (the demo again, or `sync` against that sandbox) go on as before.
 *
 * @example
 * await refuseDemoDatabase(db, [{ uid: '8000000001', name: 'main' }]);
 */
export async function refuseDemoDatabase(db: Kysely<any>, accounts: readonly { uid: string; name: string }[]): Promise<void> {
  const { rows } = await sql<{ uid: string; world: string }>`
    SELECT DISTINCT u.uid, concat('seed ', r.options->'sandbox'->>'seed', ', scale ', r.options->'sandbox'->>'scale') AS world
    FROM sync_runs r CROSS JOIN LATERAL unnest(r.account_uids) AS u(uid)
    WHERE r.options ? 'sandbox' ORDER BY 1`.execute(db);
  if (rows.length === 0) return;
  const demo = new Set(rows.map((r) => r.uid));
  const others = accounts.filter((a) => !demo.has(a.uid));
  if (others.length === 0) return;
  const worlds = [...new Set(rows.map((r) => r.world))].join('; ');
  throw new TradeledgerError('SYNC_DEMO_DATABASE',
    `this database holds the demo's sandbox accounts (${worlds}: ${demo.size} account${demo.size === 1 ? '' : 's'}); syncing ${others.map((a) => `${a.name} (${a.uid})`).slice(0, 3).join(', ')}${others.length > 3 ? ', ...' : ''} into it would put your books beside the demo's made-up records in every report of all accounts; nothing was synced`, {
      kind: 'config',
      hint: 'Sync into a database of its own: with the embedded server, set TRADELEDGER_DATA_DIR to a new folder (or stop it with `npx tradeledger db stop` and move .tradeledger/pg aside, which keeps the demo); with DATABASE_URL, name another database.',
    });
}
