import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { TradeledgerError } from '../errors.js';

/** Which sandbox world a demo syncs: the same seed and scale give the same accounts and history. */
export interface DemoWorld {
  seed: string;
  scale: string;
}

/**
 * Refuses a database the demo would mix its made-up records into, before anything is written:
 *  - one whose last demo was of another sandbox world (seed or scale, recorded in
 *    sync_runs.options.sandbox by every demo's sync): the same seed gives the same account UIDs
 *    at every scale, so the second world's records would land on the first one's accounts and
 *    its balances would no longer be the sum of its history;
 *  - one holding exchange accounts this sandbox does not have (a real account's synced books, or
 *    another seed's demo, under DATABASE_URL): the demo's accounts would stand beside them in every
 *    report of all accounts, and in the tax files made from them.
 * A database holding this very world (a demo run again) is brought up to date, as a nightly sync
 * would. `where` names the database (its URL without the password).
 *
 * @example
 * await checkDemoDatabase(db, sandboxAccounts(sandbox.accounts).map((a) => a.uid!), { seed: '1', scale: 'small' }, redactUrl(url));
 */
export async function checkDemoDatabase(db: Kysely<any>, uids: readonly string[], world: DemoWorld, where: string): Promise<void> {
  const last = await sql<{ seed: string | null; scale: string | null }>`
    SELECT options->'sandbox'->>'seed' AS seed, options->'sandbox'->>'scale' AS scale FROM sync_runs
    WHERE options ? 'sandbox' ORDER BY id DESC LIMIT 1`.execute(db);
  const before = last.rows[0];
  if (before && (before.seed !== world.seed || before.scale !== world.scale)) {
    throw new TradeledgerError('DEMO_DATABASE_IN_USE',
      `${where} holds the demo of sandbox seed ${before.seed}, scale ${before.scale}; this demo is seed ${world.seed}, scale ${world.scale}, and the two worlds' records would mix on the same accounts; nothing was synced`, {
        kind: 'config',
        hint: `Run \`npx tradeledger demo --seed ${before.seed} --scale ${before.scale}\` to bring that demo up to date, or give this one a database of its own: TRADELEDGER_DATA_DIR=.tradeledger/pg-${world.scale} TRADELEDGER_PG_PORT=54330 npx tradeledger demo --seed ${world.seed} --scale ${world.scale} (with DATABASE_URL unset).`,
      });
  }
  const ours = new Set(uids);
  const { rows } = await sql<{ uid: string; name: string }>`SELECT uid, name FROM accounts ORDER BY added_at, uid`.execute(db);
  const foreign = rows.filter((r) => !ours.has(r.uid));
  if (foreign.length > 0) {
    const named = foreign.slice(0, 3).map((r) => `${r.uid} '${r.name}'`).join(', ');
    throw new TradeledgerError('DEMO_DATABASE_IN_USE',
      `${where} holds ${foreign.length} exchange account${foreign.length === 1 ? '' : 's'} this sandbox does not have (${named}${foreign.length > 3 ? ', ...' : ''}); the demo's made-up records would stand beside them in every report of all accounts; nothing was synced`, {
        kind: 'config',
        hint: 'Run the demo on a database of its own: unset DATABASE_URL to use the embedded server (.tradeledger/pg), or point TRADELEDGER_DATA_DIR at a new folder (and TRADELEDGER_PG_PORT at a free port such as 54330 while another embedded server runs).',
      });
  }
}
