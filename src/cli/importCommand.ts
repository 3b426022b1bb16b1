import { Command } from 'commander';
import { createDb } from '../db/createDb.js';
import { migrate } from '../db/migrate.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { fileSource } from '../imports/fileSource.js';
import { importFx } from '../imports/importFx.js';
import { unzippedSource } from '../imports/zipMember.js';
import { ECB_RATES_PAGE } from '../imports/ecbRates.js';
import { lineProgress } from './progress/lineProgress.js';
import { importTransactions } from '../imports/importTransactions.js';

/**
 * `tradeledger import fx FILE` and `tradeledger import transactions FILE --wallet NAME`: files the
 * exchange cannot know, checked whole before anything is stored (docs/valuation.md).
 *
 * @example
 * tradeledger import fx eurofxref-hist.zip
 * tradeledger import transactions coinbase-koinly.csv --wallet coinbase
 */
export function importCommand(_setExit: (code: number) => void): Command {
  const withDb = async <T>(fn: (db: ReturnType<typeof createDb>) => Promise<T>): Promise<T> => {
    const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`tradeledger: ${m}\n`) });
    await migrate(url);
    const db = createDb(url, { name: 'import', maxConnections: 2 });
    try {
      return await fn(db);
    } finally {
      await db.destroy();
    }
  };
  const root = new Command('import')
    .description('Import files the exchange cannot know: FX rates, transactions from elsewhere.')
    // Like the root program: bad usage reaches main()'s error handling and exit codes.
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  root.command('fx')
    .description('Import ECB euro reference rates (eurofxref-hist.csv) to value the ledger in any fiat.')
    .argument('<file>', 'the ECB CSV file, or the eurofxref-hist.zip holding it')
    .addHelpText('after', `
The ECB publishes the rates since 1999 as a zip ("Time series", CSV) on
${ECB_RATES_PAGE}
Import it as downloaded (or unzipped); import a newer one whenever you like: it adds the new days.`)
    .action(async (file: string) => {
      const src = await unzippedSource(await fileSource(file));
      const r = await withDb((db) => importFx(db, src));
      const again = r.already ? ` (imported before on ${r.already.importedAt})` : '';
      process.stdout.write(`${src.name}${again}: ${r.rates} rates of ${r.currencies} currencies, ${r.firstDay} to ${r.lastDay}: ${r.inserted} new, ${r.updated} changed to this file's rate, ${r.rates - r.inserted - r.updated} already so\n`);
      const f = r.inForce;
      const latest = f.latest.slice(0, 8).map((x) => `${x.currency} ${x.perEur} (${x.day})`).join(', ');
      process.stdout.write(`rates in force: ${f.rates} of ${f.currencies} currencies, ${f.firstDay} to ${f.lastDay}; every rate of this file, ${f.fromOtherFiles} more from other files; latest per EUR: ${latest}${f.latest.length > 8 ? `, and ${f.latest.length - 8} more` : ''}\n`);
    });
  root.command('transactions')
    .description('Import transactions from elsewhere (Koinly universal CSV) into the ledger under a wallet name.')
    .argument('<file>', 'the Koinly universal CSV file (or a zip holding it)')
    .requiredOption('--wallet <name>', 'the wallet these transactions belong to (used like an account: --account NAME)')
    .action(async (file: string, flags: { wallet: string }) => {
      const src = await unzippedSource(await fileSource(file));
      // A status line on a terminal while a large file is read and checked; nothing off one.
      const progress = lineProgress(process.stderr, 'import');
      const n = (x: number) => x.toLocaleString('en-US');
      progress.update(`reading ${src.name}`);
      const r = await withDb((db) => importTransactions(db, src, flags.wallet, new Date(), (p) => progress.update(p.stage === 'reading'
        ? `${n(p.lines)} lines of ${src.name} read`
        : `${n(p.lines)} lines read; checking the whole file (repeated lines and TxHashes)`))).finally(() => progress.stop());
      if (r.already) {
        process.stdout.write(`${src.name} was already imported on ${r.already.importedAt} as wallet ${r.already.wallet}; nothing changed\n`);
        return;
      }
      process.stdout.write(`${src.name}: ${r.inserted} transaction${r.inserted === 1 ? '' : 's'} imported into wallet ${r.wallet}, ${r.skipped} skipped (already in the wallet)\n`);
      if (r.repeatedTxHashes.count > 0) {
        const e = r.repeatedTxHashes.examples.map((x) => `${x.txHash} on lines ${x.lines.join(', ')}`).join('; ');
        process.stderr.write(`tradeledger: note: ${r.repeatedTxHashes.count} TxHash(es) on more than one line of ${src.name} (${e}); check that no transaction is listed twice\n`);
      }
      if (r.txHashesInWallet.count > 0) {
        const e = r.txHashesInWallet.examples.map((x) => `line ${x.line}: ${x.txHash}`).join('; ');
        process.stderr.write(`tradeledger: note: ${r.txHashesInWallet.count} new line(s) carry a TxHash wallet ${r.wallet} already had from an earlier import, on a line that differs (${e}); if they are the same transactions edited, the wallet now holds both\n`);
      }
    });
  return root;
}
