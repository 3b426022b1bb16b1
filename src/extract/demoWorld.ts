import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { TradeledgerError } from '../errors.js';

/** Which sandbox world a demo syncs: the same seed and scale give the same accounts and history. */
export interface DemoWorld {
  seed: string;
  scale: string;
}

/**
 * What a demo's sync keeps in its sync_runs.options (SyncOptions.runNote): the sandbox world it
 * synced. Both checks below read it back.
 *
 * @example
 * await runSync({ ...options, runNote: demoRunNote({ seed: '1', scale: 'tiny' }) });
 */
export function demoRunNote(world: DemoWorld): { sandbox: DemoWorld } {
  return { sandbox: world };
}

/** Whether a run's note is a demo's ({@link demoRunNote}). */
export function isDemoRun(note: Readonly<Record<string, unknown>> | undefined): boolean {
  return note?.sandbox !== undefined;
}

/**
 * Refuses a sync of accounts that are not the demo's into a database the demo filled (its runs
 * carry sync_runs.options.sandbox, {@link demoRunNote}): the README's first command fills the
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

/**
 * Refuses a database the demo would mix its made-up records into, before anything is written:
 *  - one whose last demo was of another sandbox world (seed or scale, recorded in
 *    sync_runs.options.sandbox by every demo's sync, {@link demoRunNote}): the same seed gives the same account UIDs
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
