import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { fileSource } from '../../src/imports/fileSource.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import type { ToolView } from './checkers/toolView.js';
import { koinlyView } from './checkers/koinlyChecker.js';
import { coinTrackerView } from './checkers/coinTrackerChecker.js';
import { coinTrackingView } from './checkers/coinTrackingChecker.js';
import { ctcView } from './checkers/ctcChecker.js';

// Issue 21, item 3: a line imported with a Koinly label keeps its meaning in every tool file
// (Koinly Label, CoinTracking type, CoinTracker tag, CTC type), read back by each tool's checker.

let fresh: FreshDatabase;
let dir: string;
const lines = [
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  '2025-02-01 10:00 UTC,,,1.5,ETH,,,,,staking,stake reward,',
  '2025-02-02 10:00 UTC,,,100,ARB,,,,,airdrop,drop,',
  '2025-02-03 10:00 UTC,,,50,USDT,,,,,income,pay,',
  '2025-02-04 10:00 UTC,0.1,ETH,,,,,,,lost,key lost,',
  '2025-02-05 10:00 UTC,0.2,ETH,,,,,,,gift,to a friend,',
  '2025-02-06 10:00 UTC,,,0.5,ETH,,,,,,plain deposit,0xabc',
];
beforeAll(async () => {
  fresh = await freshDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'tl-labels-'));
  await writeFile(path.join(dir, 'wallet.csv'), lines.join('\n') + '\n');
  await importTransactions(fresh.db, await fileSource(path.join(dir, 'wallet.csv')), 'ledgerx');
});
afterAll(async () => {
  await fresh?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const tools = { koinly: koinlyView, cointracker: coinTrackerView, cointracking: coinTrackingView, ctc: ctcView } as const;

describe('imported Koinly labels in every tool file', () => {
  it.each(Object.keys(tools) as (keyof typeof tools)[])('%s: staking, airdrop and income stay income; lost and gift leave without income; a plain deposit stays plain', async (tool) => {
    const outDir = path.join(dir, tool);
    await runReports({ databaseUrl: fresh.url, format: tool, period: reportPeriod({ year: '2025', tz: 'UTC' }), outDir });
    const rows = parse(await readFile(path.join(outDir, `${tool}.csv`)), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(6);
    // Koinly and CoinTracker carry no reference column we can key on for these lines: amounts name them.
    const view: ToolView = tools[tool](tool === 'cointracker' || tool === 'koinly'
      ? rows.map((r) => ({ ...r, Description: `deposit ledgerx ledgerx imported_transactions:x${r['Received Amount'] ?? r['Sent Amount']}` }))
      : rows.map((r) => ({ ...r, Comment: `${r.Comment} imported_transactions:x`, ID: r.ID ?? 'imported_transactions:x' })));
    const amounts = (es: { amount: { toFixed(): string }; coin: string }[]) => es.map((e) => `${e.amount.toFixed()} ${e.coin}`).sort();
    const expectedIncome = tool === 'cointracker' ? ['0.5 ETH', '1.5 ETH', '100 ARB', '50 USDT'] : ['1.5 ETH', '100 ARB', '50 USDT'];
    expect(amounts(view.income)).toEqual(expectedIncome);
    if (tool === 'ctc') {
      // CTC: "lost ... triggers a capital loss event"; an outgoing gift is a disposal.
      expect(amounts(view.disposals)).toEqual(['0.1 ETH', '0.2 ETH']);
    } else {
      expect(amounts(view.nonTaxable).filter((a) => a !== '0.5 ETH')).toEqual(['0.1 ETH', '0.2 ETH']);
      expect(view.disposals).toEqual([]);
    }
  });
});
