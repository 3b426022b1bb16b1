import { Command } from 'commander';
import { createClient } from '../db/pools.js';
import { migrate } from '../db/migrate.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { withoutJit } from '../db/withoutJit.js';
import { readReconciliation, reconciliationCounts, reconciliationText, unsyncedSubAccounts, unsyncedSubAccountsNotes, writeReconciliationFiles } from '../reports/reconcile.js';

interface ReconcileFlags {
  account?: string;
  json?: boolean;
  out?: string;
  force?: boolean;
}

/**
 * `tradeledger reconcile`: per account, wallet and coin the exchange's balance, the ledger's, the
 * difference and why (match, opening balance, unexplained naming the record where the running
 * balances part, or no exchange figure); `--out DIR` also writes reconciliation.csv and the
 * opening-balances.csv template (docs/ledger.md).
 *
 * @example
 * tradeledger reconcile --json | jq '.rows[] | select(.status == "unexplained") | .parted'
 */
export function reconcileCommand(_setExit: (code: number) => void): Command {
  return new Command('reconcile')
    .description('Check every balance against the exchange\'s own figure, and say why any differs.')
    .option('--account <uid>', 'only this account (default: every account)')
    .option('--json', 'print one JSON object: { counts, rows }')
    .option('--out <dir>', 'also write reconciliation.csv and opening-balances.csv (Koinly template to fill with costs) into this folder')
    .option('--force', 'replace those files if the folder already holds them')
    .exitOverride()
    .addHelpText('after', '\nStatuses: match; opening_balance (held before the first record the exchange still serves: a holding without a known cost);\nunexplained (names the first record where the exchange\'s running balance and the ledger\'s part); no_snapshot (the exchange reports no balance).')
    .action(async (flags: ReconcileFlags) => {
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`tradeledger: ${m}\n`) });
      await migrate(url);
      const client = createClient({ url, name: 'reconcile' });
      await client.connect();
      try {
        // One snapshot for the printed rows and the files, as a report has, and no JIT.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query(withoutJit);
        const rows = await readReconciliation(client, flags.account ?? '');
        const files = flags.out === undefined ? undefined : await writeReconciliationFiles(client, flags.account ?? '', flags.out, flags.force ?? false);
        const unsynced = await unsyncedSubAccounts(client, rows);
        await client.query('COMMIT');
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ counts: reconciliationCounts(rows), rows, ...(files ? { files } : {}), ...(unsynced.length > 0 ? { unsyncedSubAccounts: unsynced } : {}) })}\n`);
          return;
        }
        process.stdout.write(reconciliationText(rows));
        // No balance at all: "0 balance(s)" alone does not say that nothing was synced.
        if (rows.length === 0) {
          process.stderr.write(`tradeledger: note: nothing to reconcile: no balance${flags.account ? ` of ${flags.account}` : ''} has been read yet; \`tradeledger sync\` reads the exchange's balances and history (\`tradeledger status\` shows what each account holds)\n`);
        }
        for (const note of unsyncedSubAccountsNotes(unsynced)) process.stderr.write(`tradeledger: note: ${note}\n`);
        if (files) process.stdout.write(`wrote ${files.dir}: reconciliation.csv (${files.reconciliationRows} rows), opening-balances.csv (${files.openingLines} lines)\n`);
      } finally {
        await client.end();
      }
    });
}
