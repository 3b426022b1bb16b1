import { Command } from 'commander';
import { createDb } from '../db/createDb.js';
import { migrate } from '../db/migrate.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { syncStatus } from '../extract/syncStatus.js';
import { runHolderAlive } from '../extract/syncLock.js';
import { syncJobStatus } from '../worker/syncJobStatus.js';
import { pricesStatus } from '../valuation/pricesStatus.js';
import { statusWarnings, statusWarningsText } from './statusWarnings.js';
import { andList } from '../portal/accountWarnings.js';

/**
 * `tradeledger status`: per account and stream the watermark, state, row count, known history
 * gaps and records still open (count and oldest), and the last run.
 *
 * @example
 * tradeledger status --json | jq '.streams[] | select(.state == "failed")'
 */
export function statusCommand(_setExit: (code: number) => void): Command {
  return new Command('status')
    .description('Show per account and stream: the last run, the watermark, row counts, known history gaps and records still open.')
    .option('--json', 'print one JSON object')
    .action(async (flags: { json?: boolean }) => {
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`tradeledger: ${m}\n`) });
      await migrate(url);
      const db = createDb(url, { name: 'status', maxConnections: 2 });
      try {
        const s = await syncStatus(db);
        // A run whose process died with its database could not record its end: it is not running.
        if (s.lastRun?.status === 'running' && !(await runHolderAlive(db, s.lastRun.id))) s.lastRun.status = 'interrupted';
        const jobs = await syncJobStatus(db);
        const prices = await pricesStatus(db);
        const warnings = await statusWarnings(url);
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ ...s, jobs, prices, warnings })}\n`);
          return;
        }
        const run = s.lastRun;
        process.stdout.write(run ? `last run ${run.id}: ${run.status}, started ${run.startedAt}${run.finishedAt ? `, finished ${run.finishedAt}` : ''}${run.errors ? `, ${run.errors} failed partitions` : ''}\n` : 'no sync has run yet: run `tradeledger sync`\n');
        for (const x of s.streams) {
          const run = x.lastRunId === null ? '' : `  (run ${x.lastRunId})`;
          process.stdout.write(`${`${x.accountName}/${x.stream}`.padEnd(40)} ${x.state.padEnd(11)} ${String(x.rows).padStart(9)} rows  ${x.state === 'snapshot' ? 'latest snapshot' : `${x.historyFrom ? `from ${x.historyFrom.slice(0, 10)}, ` : ''}complete to`} ${x.watermark ?? '-'}${run}\n`);
          if (x.lastError && x.state === 'failed') process.stdout.write(`    last error: ${x.lastError}\n`);
          if (x.pendingWindows > 0) process.stdout.write(`    ${x.pendingWindows} window${x.pendingWindows === 1 ? '' : 's'} of an interrupted run still to read: the next sync reads them first\n`);
          for (const line of statusGapLines(x.gaps)) process.stdout.write(`    ${line}\n`);
          if (x.open.count > 0) {
            const overdue = x.open.overdue > 0 ? `; ${x.open.overdue} open longer than the limit, listed in data-quality.csv` : '';
            process.stdout.write(`    ${x.open.count} still open (not final) since ${x.open.oldest?.slice(0, 10) ?? 'an unknown time'}: re-checked every sync until final${overdue}\n`);
          }
        }
        const p = prices;
        process.stdout.write(`${'prices (candles for valuation)'.padEnd(40)} ${p.candles.candles > 0 ? `${p.candles.candles} candles of ${p.candles.coins} coins, newest ${p.candles.latest}` : 'none yet: `tradeledger sync` reads them after the other streams'}\n`);
        process.stdout.write(`${'fx rates (ECB)'.padEnd(40)} ${p.fx.currencies > 0 ? `${p.fx.currencies} currencies, last rate ${p.fx.lastRateDay}` : 'none: USD values only; `tradeledger import fx eurofxref-hist.zip` for EUR, GBP, ...'}\n`);
        for (const w of p.wallets) process.stdout.write(`${`${w.wallet}/imported`.padEnd(40)} ${String(w.transactions).padStart(9)} transaction${w.transactions === 1 ? '' : 's'} from ${w.files} file${w.files === 1 ? '' : 's'}, last import ${w.lastImportAt}\n`);
        if (jobs.length > 0) process.stdout.write('sync jobs (tradeledger worker):\n');
        for (const j of jobs) {
          process.stdout.write(`  ${j.account.padEnd(24)} queued ${j.queued}  running ${j.running}  failed ${j.failed}${j.nextRunAt && j.queued > 0 ? `  next ${j.nextRunAt}` : ''}\n`);
          if (j.lastError) process.stdout.write(`    ${j.lastErrorKind === 'permanent' ? 'failed for good (not retried)' : j.lastErrorKind === 'exhausted' ? 'failed after every retry' : 'retrying after'}: ${j.lastError}\n`);
        }
        process.stdout.write(statusWarningsText(warnings));
      } finally {
        await db.destroy();
      }
    });
}

/**
 * A stream's history gaps as `status` lists them: one line per span of dates, naming every
 * partition that has it (the three futures product types of an order stream share one gap: the
 * demo's status printed three near-identical lines under every futuresOrders).
 *
 * @example
 * statusGapLines([{ partition: 'USDT-FUTURES', from: '2024-11-28T00:00:00Z', to: '2026-08-31T00:00:00Z' }, { partition: 'COIN-FUTURES', ... }]);
 * // ["history gap COIN-FUTURES and USDT-FUTURES: 2024-11-28 .. 2026-08-31 (beyond the endpoint's horizon)"]
 */
export function statusGapLines(gaps: readonly { partition: string; from: string; to: string }[]): string[] {
  const spans = new Map<string, { unread: boolean; partitions: string[] }>();
  for (const g of gaps) {
    const unread = g.from.startsWith('1970-01-01');
    const span = unread ? `before ${g.to.slice(0, 10)}` : `${g.from.slice(0, 10)} .. ${g.to.slice(0, 10)}`;
    const at = spans.get(span) ?? { unread, partitions: [] };
    if (!at.partitions.includes(g.partition)) at.partitions.push(g.partition);
    spans.set(span, at);
  }
  return [...spans].map(([span, { unread, partitions }]) => `history gap ${andList([...partitions].sort())}: ${span} ${unread
    ? "(the first sync's default start; read it with tradeledger sync --since YYYY-MM-DD)"
    : "(beyond the endpoint's horizon)"}`);
}
