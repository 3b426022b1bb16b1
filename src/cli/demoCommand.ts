import path from 'node:path';
import { Command } from 'commander';
import { DAY_MS } from '../api/endpoints.js';
import { exitCodes } from '../errors.js';
import { createDb } from '../db/createDb.js';
import { migrate } from '../db/migrate.js';
import { redactUrl } from '../db/redactUrl.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { startSandboxProcess } from './sandboxProcess.js';
import { runSync } from '../extract/runSync.js';
import { checkDemoDatabase, demoRunNote } from '../extract/demoWorld.js';
import { sandboxAccounts } from './config/sandboxAccounts.js';
import { configDefaults } from './config/syncConfig.js';
import { syncProgress } from './progress/syncProgress.js';
import { syncSummary } from './progress/syncSummary.js';
import { reportLostDatabase } from './progress/reportLostDatabase.js';
import { runReports } from '../reports/runReports.js';
import { claimFolder } from '../reports/reportOutput.js';
import { summaryLine, valuationSummary } from '../valuation/valuationSummary.js';
import { reportPeriod } from '../reports/reportPeriod.js';
import { reportFormats } from '../reports/reportFormats.js';
import { demoGains } from '../gains/demoGains.js';
import { utcYear } from '../normalize/calendarDate.js';

interface DemoFlags { scale: string; seed: string; rateLimits?: boolean; includeDemo?: boolean }

/**
 * `tradeledger demo`: starts the sandbox (as its own process, off the live display's event loop),
 * syncs every stream of every sandbox account into the default database (embedded PostgreSQL
 * unless DATABASE_URL is set), writes this year's reports and gains, and says where to look next.
 * No exchange account needed. Each stage prints its line on stdout as it is reached (sandbox,
 * database, sync, valuation, each report folder, gains), in that order.
 *
 * @example
 * tradeledger demo && psql "$(tradeledger db url)" -c 'select count(*) from spot_fills'
 */
export function demoCommand(setExit: (code: number) => void): Command {
  return new Command('demo')
    .description('Try everything without an account: start the sandbox, sync all of it into the database, write this year\'s reports.')
    .option('--scale <scale>', 'sandbox data size: tiny, small, medium, ...', 'small')
    .option('--seed <n>', 'sandbox seed', '1')
    .option('--rate-limits', 'run the sandbox and the client at the real rate limits (slower, realistic)')
    .option('--include-demo', 'put the demo-trading account into the tax files and gains too (valued 0); by default it is left out')
    .action(async (flags: DemoFlags) => {
      const log = (m: string) => process.stderr.write(`tradeledger: ${m}\n`);
      const rateLimit = flags.rateLimits ?? false;
      const say = (line: string) => process.stdout.write(`${line}\n`);
      const sandbox = await startSandboxProcess({ seed: flags.seed, scale: flags.scale, rateLimit });
      // Closed on every path: a sandbox left running would outlive the demo, and a database that
      // cannot start (its port taken, say) would leave it behind after the error message.
      try {
        say(`sandbox: serving ${sandbox.baseUrl} from its own process (pid ${sandbox.pid}; seed ${flags.seed}, scale ${flags.scale})`);
        const { url } = await resolveDatabase({ log });
        await migrate(url);
        say(`database: ${redactUrl(url)}, migrated`);
        const db = createDb(url, { name: 'demo', maxConnections: 12 });
        const progress = syncProgress();
        try {
          const accounts = sandboxAccounts(sandbox.accounts);
          const world = { seed: flags.seed, scale: flags.scale };
          await checkDemoDatabase(db, accounts.map((a) => a.uid!), world, `the database ${redactUrl(url)}`);
          const result = await runSync({
            db, baseUrl: sandbox.baseUrl, accounts, emit: progress.sink, runNote: demoRunNote(world),
            sync: {
              since: Date.now() - 731 * DAY_MS, historyDays: configDefaults.historyDays,
              safetyLagMs: configDefaults.safetyLagSeconds * 1000, lookbackDays: configDefaults.lookbackDays,
              horizonMarginMs: configDefaults.horizonMarginSeconds * 1000, windowDays: {}, concurrency: configDefaults.concurrency,
              parallelWindows: configDefaults.parallelWindows, symbols: undefined, streams: undefined,
            },
            client: { safetyFactor: configDefaults.safetyFactor, maxRetries: configDefaults.maxRetries, retryBaseMs: 100, timeoutMs: configDefaults.timeoutMs, rateLimit, maxClockSkewMs: configDefaults.maxClockSkewSeconds * 1000 },
          });
          progress.stop();
          process.stdout.write(syncSummary(result));
          if (result.status === 'failed') {
            reportLostDatabase(result, url);
            setExit(exitCodes.database);
            return;
          }
          process.stdout.write(`${summaryLine(await valuationSummary(db, 'USD'))}\n`);
          // The sandbox's history ends now, so this year's ledger has rows; at --scale tiny the
          // newest taxable records are some eight weeks old, so from 1 January to late February the
          // tool files of the year can be empty (test/cli/demoCommand.test.ts). One reading of the
          // clock for the reports and the gains: read twice, a demo running across New Year (UTC)
          // would put the next year's gains in this year's folder.
          const now = Date.now();
          const year = String(utcYear(now));
          const period = reportPeriod({ year, tz: 'UTC' });
          const includeDemo = flags.includeDemo ?? false;
          let demoNames: string[] = [];
          // Reports are never overwritten: a second demo (or one started at the same moment)
          // writes beside the first one's folders.
          const root = await claimFolder(path.join('tradeledger-reports', period.label));
          say('');
          say(`Reports for ${year} (UTC), each folder with its manifest.json:`);
          for (const format of reportFormats) {
            const { outDir, manifest } = await runReports({ databaseUrl: url, period, format, outDir: path.join(root, format), includeDemo });
            demoNames = manifest.demo.accounts.map((a) => a.name);
            const rows = manifest.files.reduce((n, f) => n + f.rows, 0);
            // Short enough not to wrap on an 80-column terminal: the manifest lists the files.
            say(`  ${outDir}  (${manifest.files.length} file${manifest.files.length === 1 ? '' : 's'}, ${rows} rows)`);
          }
          // The year is not over: its figures so far, not a return's (incompleteFigures.ts, period_open).
          say('Capital gains of this tax year so far, not for filing (tradeledger gains):');
          for (const line of await demoGains(url, now, root, includeDemo)) say(line);
          process.stdout.write([
            ...(demoNames.length === 0 ? [] : includeDemo
              ? [`Demo-trading account ${demoNames.join(', ')}: included on request, valued 0.`]
              : [`Demo-trading account ${demoNames.join(', ')}: in the native CSVs (demo column),`, '  left out of the tax files and gains (paper money; --include-demo).']),
            '',
            `The data is in ${redactUrl(url)}. Next:`,
            // Each line under 80 columns, so none wraps on a terminal.
            // Run as printed from the clone's folder (npx finds the package's own bin there).
            '  npx tradeledger status                    # history read (from, to), rows and gaps per stream',
            '  psql "$(npx tradeledger db url)" -c "\\dt"  # the tables (docs/schema.md)',
            `  npx tradeledger report --year ${year} --tz Europe/Berlin --format koinly`,
            '                                            # reports in your own zone and tool',
            '  npx tradeledger users add me --role admin && npx tradeledger serve',
            '                                            # the portal: http://127.0.0.1:8080',
            '',
          ].join('\n'));
          setExit(result.status === 'ok' ? exitCodes.ok : exitCodes.partial);
        } finally {
          progress.stop();
          await db.destroy();
        }
      } finally {
        await sandbox.close();
      }
    });
}

