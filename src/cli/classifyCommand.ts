import { Command } from 'commander';
import type pg from 'pg';
import { createPool } from '../db/pools.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { migrate } from '../db/migrate.js';
import { TradeledgerError } from '../errors.js';
import { classifications } from '../corrections/classifications.js';
import { correctableRows, listCorrections, setCorrection, undoCorrection } from '../corrections/ledgerCorrections.js';
import type { Correction } from '../corrections/ledgerCorrections.js';

async function withPool<T>(run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`${m}\n`) });
  await migrate(url);
  const pool = createPool({ url, name: 'classify', max: 2 });
  try {
    return await run(pool);
  } finally {
    await pool.end();
  }
}

const what = (c: Correction) => [c.classification, c.price === null ? null : `price ${c.price} ${c.priceCurrency} (${c.priceSource})`, c.otherSide === null ? null : `other side ${c.otherSide}`].filter(Boolean).join(', ');
const line = (c: Correction) => `#${c.id}  ${c.row} ${c.wallet}/${c.leg}  ${c.ts ?? '(row not in the ledger now)'}  ${c.amount ?? ''} ${c.coin ?? ''}  -> ${what(c)}  by ${c.setBy} at ${c.setAt}: ${c.why}`;

/**
 * `tradeledger classify set|undo|list|rows|kinds`: audited corrections of ledger rows (a
 * withdrawal that was a gift, a deposit that was income, a price with its source). Each records
 * who, when and why; the user must be a portal user with a grant on the account (or an admin).
 *
 * @example
 * tradeledger classify set --user anna --account 1000000001 --row withdrawals:42 --as gift_sent --why "present to her son"
 */
export function classifyCommand(_setExit: (code: number) => void): Command {
  const classify = new Command('classify')
    .description('Correct a ledger row, audited: classify a deposit or withdrawal (gift, payment, income, lost, own wallet ...) or give it a price; undo, list.')
    .exitOverride()
    .addHelpText('after', `
Every correction records who (--user, a portal user with a grant on the account), when and why
(--why), is keyed by the row's own ids (it survives every re-sync), and flows into the valued
ledger, gains, income.csv and every tax-tool file; corrections.csv lists those in force.
Example:
  tradeledger classify rows --user anna --account 1000000001 --kind withdrawal
  tradeledger classify set --user anna --account 1000000001 --row withdrawals:42 --as gift_sent --why "birthday present"
  tradeledger classify undo --user anna --id 7 --why "it was a sale after all"
Exit codes: 0 done, 2 unknown row, kind or user, no grant on the account, missing --why; 4 database problem.`);

  classify.command('set').exitOverride()
    .description('set a correction on one ledger row (replaces the one in force; undo puts it back)')
    .requiredOption('--user <name>', 'who corrects: a portal user (tradeledger users list) with a grant on the account')
    .requiredOption('--account <uid>', 'the row\'s account UID (or imported wallet name)')
    .requiredOption('--row <source:id>', 'the ledger row, e.g. withdrawals:1234567890 (classify rows lists them; koinly.csv\'s Description shows it)')
    .option('--as <kind>', `the classification: ${classifications.map((c) => c.name).join(', ')} (classify kinds explains each)`)
    .option('--other <side>', 'own_wallet: the other side of the move (your wallet\'s name or address, or its row source:id)')
    .option('--price <decimal>', 'a corrected unit price')
    .option('--price-currency <code>', 'the fiat of --price (ISO 4217)')
    .option('--price-source <text>', 'where --price comes from (an invoice, a price site\'s close ...)')
    .option('--wallet <wallet>', 'the row\'s wallet, when its id has several')
    .option('--leg <leg>', 'the row\'s leg (amount, fee, base, quote ...), when its id has several')
    .requiredOption('--why <text>', 'why: kept with the correction, for the audit')
    .action(async (flags: { user: string; account: string; row: string; as?: string; other?: string; price?: string; priceCurrency?: string; priceSource?: string; wallet?: string; leg?: string; why: string }) => {
      const { correction, replaced } = await withPool((pool) => setCorrection(pool, {
        username: flags.user, account: flags.account, row: flags.row, classification: flags.as, otherSide: flags.other,
        price: flags.price, priceCurrency: flags.priceCurrency, priceSource: flags.priceSource, wallet: flags.wallet, leg: flags.leg, why: flags.why,
      }));
      process.stdout.write(`set ${line(correction)}\n`);
      if (replaced) process.stdout.write(`replaces #${replaced.id} (${what(replaced)}); undo #${correction.id} puts it back\n`);
    });

  classify.command('undo').exitOverride()
    .description('undo a correction in force (kept for the audit; the one it replaced comes back)')
    .requiredOption('--user <name>', 'who undoes it: a portal user with a grant on its account')
    .requiredOption('--id <n>', 'the correction\'s id (classify list shows it)')
    .requiredOption('--why <text>', 'why: kept with the correction, for the audit')
    .action(async (flags: { user: string; id: string; why: string }) => {
      const { undone, restored } = await withPool((pool) => undoCorrection(pool, { username: flags.user, id: flags.id, why: flags.why }));
      process.stdout.write(`undid #${undone.id} on ${undone.row} (${what(undone)})\n`);
      if (restored) process.stdout.write(`back in force: ${line(restored)}\n`);
    });

  classify.command('list').exitOverride()
    .description('list an account\'s corrections in force (--history: every one ever set, undone and replaced too)')
    .requiredOption('--user <name>', 'a portal user with a grant on the account')
    .requiredOption('--account <uid>', 'the account UID (or imported wallet name)')
    .option('--history', 'every correction ever set, with who undid or replaced it')
    .option('--json', 'one JSON array on stdout')
    .action(async (flags: { user: string; account: string; history?: boolean; json?: boolean }) => {
      const list = await withPool((pool) => listCorrections(pool, { username: flags.user, account: flags.account, history: flags.history ?? false }));
      if (flags.json) { process.stdout.write(`${JSON.stringify(list, null, 2)}\n`); return; }
      if (list.length === 0) { process.stdout.write(`no corrections ${flags.history ? '' : 'in force '}on account ${flags.account}\n`); return; }
      for (const c of list) {
        const state = c.inForce ? '' : c.undoneAt ? `  [undone by ${c.undoneBy} at ${c.undoneAt}: ${c.undoWhy}]` : `  [replaced by #${c.replacedBy}]`;
        process.stdout.write(`${line(c)}${state}\n`);
      }
    });

  classify.command('rows').exitOverride()
    .description('list an account\'s deposits and withdrawals (newest first) with their row ids and the correction on each')
    .requiredOption('--user <name>', 'a portal user with a grant on the account')
    .requiredOption('--account <uid>', 'the account UID (or imported wallet name)')
    .option('--kind <kind>', 'deposit or withdrawal only')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'one JSON array on stdout')
    .action(async (flags: { user: string; account: string; kind?: string; limit: string; json?: boolean }) => {
      const kind = flags.kind === 'deposit' || flags.kind === 'withdrawal' ? flags.kind : undefined;
      if (flags.kind !== undefined && kind === undefined) throw new TradeledgerError('CORRECTION_BAD_FLAG', `--kind ${flags.kind} is not deposit or withdrawal`, { kind: 'config', hint: 'Use --kind deposit or --kind withdrawal.' });
      const rows = await withPool((pool) => correctableRows(pool, { username: flags.user, account: flags.account, kind, limit: Math.max(1, Math.min(10_000, Number(flags.limit) || 50)) }));
      if (flags.json) { process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`); return; }
      for (const r of rows) {
        const c = r.correction ? `  #${r.correction.id} ${[r.correction.classification, r.correction.price === null ? null : `price ${r.correction.price} ${r.correction.priceCurrency}`].filter(Boolean).join(', ')}` : '';
        process.stdout.write(`${r.row.padEnd(32)} ${r.ts}  ${r.kind.padEnd(10)} ${r.amount} ${r.coin}${r.counterparty ? `  ${r.counterparty}` : ''}${c}\n`);
      }
    });

  classify.command('kinds').exitOverride().description('list the classifications and what each does to the tax figures').action(() => {
    for (const c of classifications) process.stdout.write(`${c.name.padEnd(16)} ${c.direction.padEnd(7)} ${c.meaning}\n`);
  });
  return classify;
}
