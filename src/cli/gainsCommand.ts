import { Command, Option } from 'commander';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { migrate } from '../db/migrate.js';
import { runGains } from '../gains/runGains.js';
import { poolingByFlag, returnCurrencies, ruleSetNames } from '../gains/ruleSets.js';
import type { RuleSetName } from '../gains/ruleSets.js';
import { parseGainsRequest, poolChoices } from '../gains/gainsRequest.js';
import type { PoolChoice } from '../gains/gainsRequest.js';
import { toPenny } from '../gains/gainsDecimal.js';
import { brokerReportingFromConfig } from '../gains/brokerReporting.js';
import type { GainsProgress } from '../gains/runGains.js';
import { lineProgress } from './progress/lineProgress.js';
import { whileInterruptible } from './interrupt.js';

interface GainsFlags {
  year: string;
  rules: RuleSetName;
  fiat?: string;
  tz?: string;
  account?: string;
  pools: PoolChoice;
  out?: string;
  force?: boolean;
  lots?: string;
  config?: string;
  includeDemo?: boolean;
}

/**
 * `tradeledger gains`: a tax year's capital gains under one rule set, into the report folder.
 *
 * @example
 * tradeledger gains --year 2025 --rules uk --fiat GBP --tz Europe/London
 */
export function gainsCommand(_setExit: (code: number) => void): Command {
  return new Command('gains')
    .description('Compute a tax year\'s capital gains (lot matching per jurisdiction) and write gains.csv, income.csv, summaries and forms.')
    .requiredOption('--year <YYYY>', 'the tax year (UK: the year starting 6 April YYYY; Australia: 1 July YYYY; others: the calendar year)')
    .addOption(new Option('--rules <rules>', 'matching rules').choices([...ruleSetNames]).makeOptionMandatory())
    .option('--fiat <code>', `the currency of every value, e.g. GBP, USD, EUR (default: the return's currency for a country's rules, ${returnCurrencies()}; fifo/lifo/hifo/average need it)`)
    .option('--tz <zone>', 'IANA time zone that days and the tax year are counted in (default: uk Europe/London, de Europe/Berlin, fifo/lifo/hifo/average UTC; us, ca and au ask for it)')
    .option('--account <uid>', 'only this account or imported wallet (default: all)')
    .addOption(new Option('--pools <pools>', `${poolingByFlag().join('/')}: one pool across wallets, or one per account/wallet (the others' rules fix their pools)`).choices([...poolChoices]).default('universal'))
    .option('--out <dir>', 'output folder (default ./tradeledger-reports/gains/<year>-<rules>-<fiat>; -2, -3, ... beside an existing one)')
    .option('--lots <file>', 'US only: a CSV naming the acquisition lots of disposals (specific identification; docs/gains.md); others stay FIFO')
    .option('--config <file>', 'US: the config file (or TRADELEDGER_CONFIG) whose accounts say how the broker reported (form1099DA), for the Form 8949 box')
    .option('--force', 'replace files already in the output folder (never through a symlink)')
    .option('--include-demo', 'include demo-trading (paper) accounts, valued 0 (default: left out; summary.txt names them)')
    .exitOverride()
    .addHelpText('after', '\nExample: tradeledger gains --year 2025 --rules uk --fiat GBP --tz Europe/London\n'
      + `A country's rules file in its own currency (${returnCurrencies()}; values in any but USD need \`tradeledger import fx\`).\n`
      + 'A run in another currency, or with rows it could not value or disposals without a cost, says NOT READY TO FILE (summary.txt, its last line).')
    .action(async (flags: GainsFlags) => {
      const { request, zoneNote, fiatNote } = parseGainsRequest(flags, 'cli');
      const configFile = flags.config ?? (process.env.TRADELEDGER_CONFIG || undefined);
      const brokerReporting = request.rules === 'us' && configFile !== undefined ? brokerReportingFromConfig(configFile) : undefined;
      process.stdout.write(`${zoneNote}\n${fiatNote === undefined ? '' : `${fiatNote}\n`}`);
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`${m}\n`) });
      await migrate(url);
      // A status line on a terminal while the run reads and matches (minutes at millions of rows);
      // nothing off one. Stopped before any other line is printed.
      const progress = lineProgress(process.stderr, 'gains');
      const { outDir, summary, rowsRead } = await whileInterruptible(({ signal }) => runGains({
        databaseUrl: url, ...request, outDir: flags.out, force: flags.force ?? false, lots: flags.lots, brokerReporting, signal,
        onProgress: (p) => progress.update(gainsProgressText(p)),
        // A CSV's rows; the summaries are one document each, not "1 rows".
        onFile: (f) => { progress.stop(); process.stdout.write(`${f.file.padEnd(28)} ${f.file.endsWith('.csv') ? `${String(f.rows).padStart(9)} rows` : `${String(f.bytes).padStart(9)} bytes`}\n`); },
      })).finally(() => progress.stop());
      const t = summary.total;
      process.stdout.write(`wrote ${outDir} (${summary.period.from} to ${summary.period.to}): ${t.disposals} disposals, gains ${summary.fiat} ${toPenny(t.gains)}, losses ${summary.fiat} ${toPenny(t.losses)}\n`);
      if (summary.demo.accounts.length > 0 && !summary.demo.included) {
        process.stderr.write(`note: demo-trading account(s) ${summary.demo.accounts.map((a) => a.name).join(', ')} left out (paper money); --include-demo puts them in\n`);
      }
      // Nothing at all up to the year's end: the right answer for a year before the accounts
      // traded, and the usual sign of a mistyped --year or --account.
      if (rowsRead === 0) {
        process.stderr.write(`note: the ledger holds no rows${request.account ? ` of ${request.account}` : ''} up to ${summary.period.to}, so every figure is 0; check --year${request.account ? ' and --account' : ''}, and that \`tradeledger sync\` or an import has run\n`);
      }
      const dq = Object.values(summary.dataQuality).reduce((a, b) => a + b, 0);
      if (dq > 0) process.stderr.write(`note: ${dq} data-quality note(s); see gains-data-quality.csv\n`);
      // Figures not yet the return's (a value or a cost counted as 0, another currency): said last, where it is seen, and at the top of summary.txt.
      for (const f of summary.incomplete) process.stderr.write(`warning: NOT READY TO FILE: ${f.text}\n  fix: ${f.fix}\n`);
    });
}

/**
 * The status line's text for a stage of a gains run.
 *
 * @example
 * gainsProgressText({ stage: 'matching', rows: 120000, day: '2024-06-01', matches: 4100 }); // '120,000 ledger rows read, up to 2024-06-01; 4,100 matches in the tax year'
 */
export function gainsProgressText(p: GainsProgress): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (p.stage === 'reading') return 'valuing and sorting the ledger (rows come once it is sorted)';
  if (p.stage === 'writing') return `${n(p.rows)} ledger rows read; writing holdings and files`;
  return `${n(p.rows)} ledger rows read, up to ${p.day}; ${n(p.matches)} matches in the tax year`;
}
