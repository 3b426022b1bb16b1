import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { importFx } from '../../src/imports/importFx.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { TradeledgerError } from '../../src/errors.js';
import { memoryFile } from '../support/memoryFile.js';
import { runCli } from '../support/runCli.js';

const ecb = 'Date,USD,GBP,\n2025-03-04,1.0625,0.83,\n2025-03-03,1.05,0.825,\n2025-02-28,1.04,0.82,\n';
const koinly = `Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash
2025-03-03 09:00 UTC,2500,USDT,1,ETH,0.001,ETH,2400,GBP,,bought elsewhere,0xabc
2025-03-03 11:00 UTC,,,0.5,BTC,,,,,,opening balance,
`;

let fresh: FreshDatabase;
let dir: string;
beforeAll(async () => {
  fresh = await freshDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'tl-import-'));
});
afterAll(async () => {
  await fresh?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every imported table's content, to compare before and after. */
async function snapshot(): Promise<string> {
  const tables = ['imported_files', 'fx_rates', 'fx_rates_daily', 'imported_transactions'];
  const parts: string[] = [];
  for (const t of tables) {
    const { rows } = await sql<{ j: string }>`SELECT coalesce(json_agg(x ORDER BY x::text)::text, '[]') AS j FROM (SELECT * FROM ${sql.table(t)}) x`.execute(fresh.db);
    parts.push(rows[0]!.j);
  }
  return parts.join('\n');
}

const now = new Date('2026-01-01T00:00:00Z');

describe('import fx', () => {
  it('stores the rates and gives every calendar day the last earlier rate', async () => {
    const r = await importFx(fresh.db, memoryFile('eurofxref-hist.csv', ecb), now);
    expect(r).toMatchObject({ rates: 6, inserted: 6, updated: 0, currencies: 2, firstDay: '2025-02-28', lastDay: '2025-03-04', already: null });
    const { rows } = await sql<{ currency: string; day: string; per_eur: string; rate_day: string }>`
      SELECT currency, day::text, per_eur::text, rate_day::text FROM fx_rates_daily
      WHERE day BETWEEN '2025-02-28' AND '2025-03-03' ORDER BY currency, day`.execute(fresh.db);
    const usd = rows.filter((x) => x.currency === 'USD').map((x) => [x.day, x.per_eur, x.rate_day]);
    expect(usd).toEqual([
      ['2025-02-28', '1.04', '2025-02-28'], ['2025-03-01', '1.04', '2025-02-28'], ['2025-03-02', '1.04', '2025-02-28'], ['2025-03-03', '1.05', '2025-03-03'],
    ]);
    expect(rows.filter((x) => x.currency === 'EUR').every((x) => x.per_eur === '1')).toBe(true);
    // Days after the file's last rate keep it too.
    const later = await sql<{ per_eur: string; rate_day: string }>`SELECT per_eur::text, rate_day::text FROM fx_rates_daily WHERE currency = 'GBP' AND day = '2025-12-25'`.execute(fresh.db);
    expect(later.rows).toEqual([{ per_eur: '0.83', rate_day: '2025-03-04' }]);
  });

  it('changes nothing when the same file is imported again, and says so', async () => {
    const before = await snapshot();
    const r = await importFx(fresh.db, memoryFile('eurofxref-hist.csv', ecb), now);
    expect(r.already).not.toBeNull();
    expect(r.inForce).toMatchObject({ rates: 6, currencies: 2, fromOtherFiles: 0, latest: [{ currency: 'GBP', day: '2025-03-04', perEur: '0.83' }, { currency: 'USD', day: '2025-03-04', perEur: '1.0625' }] });
    expect(r.inserted + r.updated).toBe(0);
    expect(await snapshot()).toBe(before);
  });

  it('takes a newer file\'s new days and revised rates only', async () => {
    const newer = `Date,USD,GBP,\n2025-03-05,1.07,0.84,\n${ecb.split('\n').slice(1).join('\n').replace('2025-03-04,1.0625', '2025-03-04,1.0626')}`;
    const r = await importFx(fresh.db, memoryFile('eurofxref-hist.csv', `Date,USD,GBP,\n${newer.split('\n').slice(1).join('\n')}`), now);
    expect(r).toMatchObject({ inserted: 2, updated: 1 });
  });

  it('stores nothing of a file with one bad line', async () => {
    const before = await snapshot();
    const bad = 'Date,USD,GBP,\n2025-03-07,1.07,0.84,\n2025-03-06,1.07,-0.84,\n';
    await expect(importFx(fresh.db, memoryFile('bad.csv', bad), now)).rejects.toThrow(/^bad\.csv line 3, column 3 \(GBP\): '-0\.84' is negative; nothing was imported$/);
    expect(await snapshot()).toBe(before);
  });
});

describe('import transactions', () => {
  it('joins the ledger under the wallet name: sent, received and fee legs', async () => {
    const r = await importTransactions(fresh.db, memoryFile('elsewhere.csv', koinly), 'elsewhere', now);
    expect(r).toMatchObject({ transactions: 2, inserted: 2, skipped: 0, already: null });
    const { rows } = await sql<Record<string, string>>`
      SELECT account_uid, wallet, coin, amount::text, kind, leg, order_id, split_part(source_id, ':', 2) AS line
      FROM ledger WHERE source = 'imported_transactions' ORDER BY ts, leg`.execute(fresh.db);
    expect(rows).toEqual([
      { account_uid: 'elsewhere', wallet: 'elsewhere', coin: 'ETH', amount: '-0.001', kind: 'fee', leg: 'fee', order_id: '0xabc', line: '2' },
      { account_uid: 'elsewhere', wallet: 'elsewhere', coin: 'ETH', amount: '1', kind: 'trade_buy', leg: 'received', order_id: '0xabc', line: '2' },
      { account_uid: 'elsewhere', wallet: 'elsewhere', coin: 'USDT', amount: '-2500', kind: 'trade_sell', leg: 'sent', order_id: '0xabc', line: '2' },
      { account_uid: 'elsewhere', wallet: 'elsewhere', coin: 'BTC', amount: '0.5', kind: 'deposit', leg: 'received', order_id: null as unknown as string, line: '3' },
    ]);
  });

  it('changes nothing when the same file is imported again, under any wallet name', async () => {
    const before = await snapshot();
    const again = await importTransactions(fresh.db, memoryFile('elsewhere.csv', koinly), 'elsewhere', now);
    expect(again).toMatchObject({ inserted: 0, already: { wallet: 'elsewhere' } });
    expect((await importTransactions(fresh.db, memoryFile('renamed.csv', koinly), 'other', now)).inserted).toBe(0);
    expect(await snapshot()).toBe(before);
  });

  it('stores long and non-ASCII lines as written, wherever a line falls in the COPY\'s pieces', async () => {
    // The importer writes each line as UTF-8 into pieces of ~512 KB (importTransactions.ts):
    // lines that straddle a piece's end, lines longer than a piece, and characters of 2, 3 and 4
    // bytes (a surrogate pair) must all arrive whole. Descriptions also carry COPY's escapes.
    const header = koinly.split('\n')[0]!;
    const descriptions: string[] = [];
    const lines: string[] = [];
    for (let i = 0; i < 2400; i++) {
      // 900,000+ UTF-16 units: longer than a piece; 30,000+ units of 2 and 3 bytes: a line whose
      // bytes are more than its length says, near a piece's end.
      const long = i % 600 === 7 ? 'ß€😀\\\t'.repeat(150_000 + i) : i % 50 === 3 ? 'ü€'.repeat(15_000 + i) : '';
      const d = `line ${i} ${'é'.repeat(i % 50)}${'😀'.repeat(i % 7)}${'€'.repeat(i % 300)}${long} tab\\t back\\\\`;
      descriptions.push(d);
      lines.push(`2025-04-01 ${String(Math.floor(i / 60) % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} UTC,,,${i + 1},BTC,,,,,,"${d}",`);
    }
    const text = `${header}\n${lines.join('\n')}\n`;
    const check = async (wallet: string) => {
      const { rows } = await sql<{ line: number; description: string; raw_description: string }>`
        SELECT line, description, raw->>'Description' AS raw_description FROM imported_transactions WHERE wallet = ${wallet} ORDER BY line`.execute(fresh.db);
      expect(rows.length).toBe(2400);
      const wrong = rows.filter((r) => r.description !== descriptions[r.line - 2] || r.raw_description !== descriptions[r.line - 2]).map((r) => r.line);
      expect(wrong).toEqual([]);
    };
    expect(await importTransactions(fresh.db, memoryFile('long.csv', text, 100_000), 'long', now)).toMatchObject({ inserted: 2400 });
    await check('long');
    // A wallet that holds lines already: the new ones go through the lookup, then the same pieces
    // (a trailing blank line makes it another file; the file's bytes decide "imported before").
    await importTransactions(fresh.db, memoryFile('first.csv', `${header}\n${lines[0]}\n`), 'long2', now);
    expect(await importTransactions(fresh.db, memoryFile('long2.csv', `${text}\n`, 100_000), 'long2', now)).toMatchObject({ inserted: 2399, skipped: 1 });
    await check('long2');
  });

  it('stores nothing of a file with one bad line, and refuses a wallet name that looks like a UID', async () => {
    const before = await snapshot();
    const bad = `${koinly.split('\n')[0]}\n2025-03-04 09:00 UTC,1,BTC,,,,,,,,,\n2025-03-04 10:00 UTC,1,BTC,,,,,,,,,\n2025-03-04 09:00 UTC,1,BTC,,,,,,,,,\n`;
    await expect(importTransactions(fresh.db, memoryFile('dup.csv', bad), 'w', now)).rejects.toThrow(/^dup\.csv line 4: the same transaction as line 2/);
    const e = await importTransactions(fresh.db, memoryFile('ok.csv', koinly.replace('0xabc', '0xdef')), '2367880421', now).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TradeledgerError);
    expect((e as TradeledgerError).code).toBe('IMPORT_BAD_WALLET');
    expect(await snapshot()).toBe(before);
  });

  it('appears in every export, selected by --account NAME, valued, and unpriced rows in data-quality', async () => {
    const period = reportPeriod({ from: '2025-01-01', to: '2026-01-01', tz: 'UTC' });
    // One report run per format and fiat (a report never overwrites its folder), read file by file.
    const written = new Map<string, Promise<unknown>>();
    const read = async (format: 'native' | 'koinly' | 'ctc', file: string, fiat = 'GBP') => {
      const outDir = path.join(dir, `${format}-${fiat}`);
      if (!written.has(outDir)) written.set(outDir, runReports({ databaseUrl: fresh.url, period, format, account: 'elsewhere', fiat, outDir }));
      await written.get(outDir);
      return parse(await readFile(path.join(outDir, file)), { columns: true }) as Record<string, string>[];
    };
    const ledger = await read('native', 'ledger.csv');
    expect(ledger.map((r) => `${r.account_uid} ${r.coin} ${r.amount}`)).toEqual(['elsewhere ETH -0.001', 'elsewhere ETH 1', 'elsewhere USDT -2500', 'elsewhere BTC 0.5']);
    const valuedRows = await read('native', 'valued-ledger.csv');
    expect(valuedRows.find((r) => r.leg === 'received' && r.coin === 'ETH')).toMatchObject({ fiat: 'GBP', value: '2400', price_source: 'imported', fx_day: '' });
    expect(valuedRows.find((r) => r.coin === 'BTC')).toMatchObject({ value: '', price_source: 'unpriced' });
    const dq = await read('native', 'data-quality.csv');
    // The ETH fee and the BTC deposit: no Net Worth, and no candles in this database.
    expect(dq.filter((r) => r.kind === 'unpriced').map((r) => `${r.source} ${r.account_uid} ${r.record_id!.split(':')[1]}`)).toEqual(
      ['imported_transactions elsewhere 2/fee', 'imported_transactions elsewhere 3/received']);
    const k = await read('koinly', 'koinly.csv', 'USD');
    const received = k.filter((r) => r['Received Currency'] === 'ETH');
    expect(received).toHaveLength(1);
    // 2400 GBP at 1.05 USD / 0.825 GBP per EUR on 2025-03-03 = 3054.5454... USD.
    // The line is one trade, as in the file it came from (sql/schema/functions/tax_transactions.sql): USDT sent, ETH received, the
    // ETH fee folded in, the line's own value as Net Worth and its hash kept.
    expect(received[0]).toMatchObject({ 'Sent Amount': '2500', 'Sent Currency': 'USDT', 'Received Amount': '1', 'Fee Amount': '0.001',
      'Fee Currency': 'ETH', 'Net Worth Amount': '3054.55', 'Net Worth Currency': 'USD', Label: '', TxHash: '0xabc' });
    expect(k.filter((r) => r['Sent Currency'] === 'USDT')).toHaveLength(1);
    // CryptoTaxCalculator: a buy of 1 ETH for 2500 USDT, priced per ETH at the line's value (to 10
    // decimals, as valued-ledger.csv rounds unit prices).
    const c = await read('ctc', 'ctc.csv', 'USD');
    expect(c.map((r) => r.Type)).toEqual(['buy', 'receive']);
    expect(c[0]).toMatchObject({ 'Base Currency': 'ETH', 'Base Amount': '1', 'Quote Currency': 'USDT', 'Quote Amount': '2500',
      'Fee Currency': 'ETH', 'Fee Amount': '0.001', 'Reference Price Per Unit': '3054.5454545455', 'Reference Price Currency': 'USD' });
    // The opening balance has no value and no candle: left blank, so CTC applies its market price.
    expect(c[1]).toMatchObject({ 'Base Currency': 'BTC', 'Base Amount': '0.5', 'Reference Price Per Unit': '', 'Reference Price Currency': '' });
  });

  it('runs from the command line: a clear one-line refusal, then the import', async () => {
    const file = path.join(dir, 'rates.csv');
    await writeFile(file, 'Date,USD,\n2025-03-10,abc,\n');
    const bad = await runCli(['import', 'fx', file], { DATABASE_URL: fresh.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("rates.csv line 2, column 2 (USD): 'abc' is not a decimal number; nothing was imported");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const tx = path.join(dir, 'wallet.csv');
    await writeFile(tx, 'Date,Received Amount,Received Currency\n2025-03-10 10:00 UTC,3,SOL\n');
    const ok = await runCli(['import', 'transactions', tx, '--wallet', 'ledger-nano'], { DATABASE_URL: fresh.url });
    expect(ok.stdout).toBe('wallet.csv: 1 transaction imported into wallet ledger-nano, 0 skipped (already in the wallet)\n');
    expect(ok.code).toBe(0);
    // status lists the imported wallets and the FX rates held.
    const status = await runCli(['status'], { DATABASE_URL: fresh.url });
    expect(status.stdout).toMatch(/ledger-nano\/imported\s+1 transaction from 1 file, last import \d{4}-/);
    const fx = (await sql<{ n: string; last: string }>`SELECT count(DISTINCT currency)::text AS n, max(day)::text AS last FROM fx_rates`.execute(fresh.db)).rows[0]!;
    expect(Number(fx.n)).toBeGreaterThan(0);
    expect(status.stdout).toContain(`fx rates (ECB)                           ${fx.n} currencies, last rate ${fx.last}`);
  });
});
