import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { fileSource } from '../../src/imports/fileSource.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { runGains, VALUED_LEDGER_SQL } from '../../src/gains/runGains.js';
import { ruleSet, type RuleSetName } from '../../src/gains/ruleSets.js';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import { GainsSummaryBuilder } from '../../src/gains/gainsSummary.js';
import { LedgerStream } from '../../src/gains/ledgerStream.js';
import type { ValuedRow } from '../../src/gains/ledgerEvents.js';

// Issue 21, item 4: a koinly.csv we write comes back in unchanged, but for what the format
// cannot carry. The sandbox is synced into one database; its whole history goes out as one
// koinly.csv; that file is imported (tradeledger import transactions) into an empty database
// holding only the same market prices (price_symbols, price_candles: prices are not transactions,
// and a fee leg carries no Net Worth); gains run on both, every year, under fifo, us and uk.
//
// The residue is not bounded, it is explained, exactly (docs/ledger.md, "The Koinly round trip"):
// the synced ledger's own rows are replayed through the same LedgerStream and matcher that
// runGains uses, with what the format cannot carry taken away one item at a time:
//   1. values: each row gets the value the file gives its line - one Net Worth per line (both
//      legs of a trade get the larger leg's value), rounded to cents; a fee leg (no Net Worth) is
//      priced from the candle where the ledger had the fill's own price;
//   2. lines: minutes only, the file's order, and one transaction per line (a fee rebate or a
//      margin deal's fee is its own line);
//   3. one wallet: every row in the importing wallet (the US per-wallet pools of 2025 become one),
//      and own-account movements, which the file leaves out, gone.
// After step 3 the replay must give exactly what runGains gives on the imported database:
// same disposals, proceeds, costs, gains and losses to the last digit. Kinds and labels are not
// projected: the synced kinds stay, so every label and shape the export writes must read back
// as the kind it came from, or the last step differs. Every value step 1 changes must follow
// the stated rule, every row must find its line, and the figures of each step are printed; a
// planted defect (one label dropped from the file) is shown to break the equality.

const env = sandboxWithDatabase();
let imported: FreshDatabase;
let planted: FreshDatabase;
let outRoot: string;
let years: number[] = [];
let syncedRows: ValuedRow[] = [];
let importedRows: ValuedRow[] = [];
const ownAccount = new Set<string>();

const readRows = async (db: Kysely<any>): Promise<ValuedRow[]> => {
  const { rows } = await sql.raw<Omit<ValuedRow, 'ms'> & { ms: string }>(
    VALUED_LEDGER_SQL.replace(/\$1/g, "'USD'").replace(/\$2/g, "'UTC'").replace(/\$3/g, "''").replace(/\$4/g, "'2100-01-01'").replace(/\$5/g, 'false')
      .replace(/\$6/g, "'-infinity'").replace(/\$7/g, "'infinity'"), // the whole ledger in one slice
  ).execute(db);
  return rows.map((r) => ({ ...r, ms: Number(r.ms) }));
};
const copyPrices = async (to: Kysely<any>) => {
  for (const table of ['price_symbols', 'price_candles']) {
    const { rows } = await sql<{ j: unknown }>`SELECT coalesce(json_agg(t), '[]'::json) AS j FROM ${sql.table(table)} t`.execute(env.fresh.db);
    await sql`INSERT INTO ${sql.table(table)} SELECT * FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows[0]!.j)}::json)
              ON CONFLICT DO NOTHING`.execute(to);
  }
};

beforeAll(async () => {
  const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
  expect(result.errors).toEqual([]);
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-roundtrip-'));
  const span = await sql<{ first: number; last: number }>`
    SELECT extract(year FROM min(ts))::int AS first, extract(year FROM max(ts))::int AS last FROM ledger`.execute(env.fresh.db);
  const { first, last } = span.rows[0]!;
  for (let y = first; y <= last; y++) years.push(y);
  // The whole history, as one koinly.csv.
  const period = reportPeriod({ from: `${first}-01-01`, to: `${last + 1}-01-01`, tz: 'UTC' });
  await runReports({ databaseUrl: env.fresh.url, format: 'koinly', period, outDir: path.join(outRoot, 'koinly') });
  const file = path.join(outRoot, 'koinly', 'koinly.csv');
  imported = await freshDatabase();
  await copyPrices(imported.db);
  const r = await importTransactions(imported.db, await fileSource(file), 'roundtrip');
  expect(r.inserted).toBeGreaterThan(300);
  // The planted defect: the same file with every 'futures fee' label dropped (an importer that
  // did not know the label reads such a line as a move to the user's other wallet).
  const text = await readFile(file, 'utf8');
  const defect = text.replace(/,futures fee,/g, ',,');
  expect(defect).not.toBe(text);
  await writeFile(path.join(outRoot, 'planted.csv'), defect);
  planted = await freshDatabase();
  await copyPrices(planted.db);
  await importTransactions(planted.db, await fileSource(path.join(outRoot, 'planted.csv')), 'roundtrip');

  syncedRows = await readRows(env.fresh.db);
  importedRows = await readRows(imported.db);
  const own = await sql<{ k: string }>`SELECT DISTINCT account_uid || '|' || wallet || '|' || source || '|' || source_id AS k
    FROM tax_transactions('-infinity', 'infinity', '', false) WHERE own_account`.execute(env.fresh.db);
  for (const o of own.rows) ownAccount.add(o.k);
}, 900_000);
afterAll(async () => {
  await imported?.drop();
  await planted?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

interface Figures { disposals: number; proceeds: string; cost: string; gains: string; losses: string }
const figuresOf = (t: Figures): Figures => ({ disposals: Number(t.disposals), proceeds: String(t.proceeds), cost: String(t.cost), gains: String(t.gains), losses: String(t.losses) });
const gainsOf = async (databaseUrl: string, rules: RuleSetName, year: number): Promise<Figures> => {
  const { summary } = await runGains({ databaseUrl, rules, year, fiat: 'USD', tz: 'UTC', outDir: await mkdtemp(path.join(outRoot, `g-${rules}-${year}-`)) });
  return figuresOf(summary.total as unknown as Figures);
};

/** runGains' matching over rows in hand (time order): the same LedgerStream, matcher and summary. */
const replay = (rows: ValuedRow[], rules: RuleSetName, year: number): Figures => {
  const set = ruleSet(rules);
  const { from, to } = set.taxYear(year);
  const readTo = new Date(Date.parse(`${to}T00:00:00Z`) + set.lookaheadDays * 86_400_000).toISOString().slice(0, 10);
  const matcher = set.matcher('universal');
  const summary = new GainsSummaryBuilder(rules);
  const stream = new LedgerStream('USD');
  const take = (ms: ReturnType<typeof matcher.push>) => {
    for (const m of ms) if (m.disposedDay >= from && m.disposedDay < to) summary.add(m, set.classify(m));
  };
  for (const r of rows) {
    if (r.day >= readTo) break;
    for (const o of stream.push(r)) for (const e of o.events) take(matcher.push(e));
  }
  for (const o of stream.finish()) for (const e of o.events) take(matcher.push(e));
  take(matcher.finish());
  const s = summary.result({ taxYear: year, from, to, tz: 'UTC', fiat: 'USD', income: new Map(), holdings: [], dataQuality: {}, demo: { included: false, treatment: '', accounts: [] } as never });
  return figuresOf(s.total as unknown as Figures);
};

// ---- the synced rows, with what the format cannot carry taken away ----
const D = (x: string | null) => new GainsDecimal(x ?? '0');
const lineOf = (r: ValuedRow) => /^(\S+) (\S+) (\S+) (\S+):(\S+)/.exec(r.description ?? '');
const keyOf = (account: string, wallet: string, source: string, id: string, coin: string, amount: string) => `${account}|${wallet}|${source}|${id}|${coin}|${D(amount).cmp(0)}|${D(amount).abs().toFixed()}`;
const isFeeLeg = (r: ValuedRow) => r.kind === 'fee' || r.leg.startsWith('fee');

interface Mapped { synced: ValuedRow; line: ValuedRow | undefined; index: number }
interface Mapping { rows: Mapped[]; unexplained: string[]; counts: Record<string, number> }

// Each synced row finds the imported row of its line (the Description names its source and id)
// with the same coin and amount: the format carries every amount exactly.
const mapRows = (): Mapping => {
  const lines = new Map<string, ValuedRow[]>();
  const unexplained: string[] = [];
  for (const r of importedRows) {
    const m = lineOf(r);
    if (!m) { unexplained.push(`imported ${r.source_id} ${r.leg}: no Description naming its source`); continue; }
    const k = keyOf(m[3]!, m[2]!, m[4]!, m[5]!, r.coin, r.amount);
    lines.set(k, [...(lines.get(k) ?? []), r]);
  }
  const counts: Record<string, number> = {};
  const count = (c: string) => { counts[c] = (counts[c] ?? 0) + 1; };
  const rows = syncedRows.map((s, index) => {
    const k = keyOf(s.account_uid, s.wallet, s.source, s.source_id, s.coin, s.amount);
    const line = lines.get(k)?.shift();
    if (!line) {
      if (ownAccount.has(`${s.account_uid}|${s.wallet}|${s.source}|${s.source_id}`)) count('own-account movement left out');
      // Loan principal is left out too (reports/koinly.sql: Koinly would read it as a purchase and a
      // sale); the ledger's gains take it as neither, so leaving it out changes no figure.
      else if (s.kind === 'borrow' || s.kind === 'repay') count('loan principal left out');
      else unexplained.push(`synced ${s.source}:${s.source_id} ${s.leg} ${s.amount} ${s.coin} (${s.kind}): no line in the file`);
    }
    return { synced: s, line, index };
  });
  for (const [k, left] of lines) for (const r of left) unexplained.push(`imported line ${r.source_id} ${r.leg} (${k}): no synced row`);
  // Values: a non-fee leg's value is its line's Net Worth, the largest |value| of the line's
  // non-fee legs rounded to cents (reports/koinly.sql); a fee leg's is the synced value, or the
  // candle's where the synced value came from the fill (price_source fill_price / *_quote).
  const byLine = new Map<string, Mapped[]>();
  for (const m of rows) if (m.line) byLine.set(m.line.source_id, [...(byLine.get(m.line.source_id) ?? []), m]);
  for (const group of byLine.values()) {
    const legs = group.filter((m) => !isFeeLeg(m.synced) || m.line!.leg !== 'fee');
    const worth = legs.every((m) => m.synced.value !== null)
      ? legs.reduce((x, m) => GainsDecimal.max(x, D(m.synced.value).abs()), new GainsDecimal(0)).toDecimalPlaces(2, GainsDecimal.ROUND_HALF_UP) : null;
    for (const m of group) {
      const s = D(m.synced.value);
      const back = D(m.line!.value);
      if (m.line!.leg !== 'fee') {
        if (worth === null ? m.line!.value !== null : !back.abs().eq(worth)) unexplained.push(`${m.synced.source}:${m.synced.source_id} ${m.synced.leg}: value ${m.line!.value}, its line's Net Worth is ${worth?.toFixed()}`);
        else if (!back.eq(s)) count(s.abs().toDecimalPlaces(2, GainsDecimal.ROUND_HALF_UP).eq(back.abs()) ? 'value rounded to cents' : 'one Net Worth per line');
      } else if (!back.eq(s)) {
        if (/fill_price|_quote/.test(m.synced.price_source ?? '') && /candle|stablecoin/.test(m.line!.price_source ?? '')) count('fee leg priced by the candle, not the fill');
        else unexplained.push(`${m.synced.source}:${m.synced.source_id} fee ${m.synced.amount} ${m.synced.coin}: value ${m.line!.value} (${m.line!.price_source}) for ${m.synced.value} (${m.synced.price_source})`);
      }
    }
  }
  return { rows, unexplained, counts };
};

type Step = 'values' | 'lines' | 'wallet';
const project = (mapping: Mapping, upTo: Step): ValuedRow[] => {
  const steps: Step[] = ['values', 'lines', 'wallet'];
  const on = (s: Step) => steps.indexOf(s) <= steps.indexOf(upTo);
  const out: { row: ValuedRow; key: [number, string, string, string, number] }[] = [];
  for (const { synced: s, line, index } of mapping.rows) {
    if (!line && on('wallet')) continue;
    const row: ValuedRow = { ...s };
    if (line && on('values')) { row.value = line.value; row.price_source = line.price_source ?? null; }
    if (line && on('lines')) Object.assign(row, { ms: line.ms, day: line.day, source: line.source, source_id: line.source_id, leg: line.leg });
    if (on('wallet')) Object.assign(row, { account_uid: 'roundtrip', wallet: 'roundtrip' });
    out.push({ row, key: on('lines') ? [row.ms, row.source, row.source_id, row.leg, index] : [row.ms, '', '', '', index] });
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  out.sort((a, b) => a.key[0] - b.key[0] || cmp(a.key[1], b.key[1]) || cmp(a.key[2], b.key[2]) || cmp(a.key[3], b.key[3]) || a.key[4] - b.key[4]);
  return out.map((x) => x.row);
};

const minus = (a: Figures, b: Figures) => ({
  disposals: a.disposals - b.disposals,
  proceeds: D(a.proceeds).minus(b.proceeds).toDecimalPlaces(2).toFixed(2),
  cost: D(a.cost).minus(b.cost).toDecimalPlaces(2).toFixed(2),
  net: D(a.gains).minus(a.losses).minus(D(b.gains).minus(b.losses)).toDecimalPlaces(2).toFixed(2),
});

describe('the Koinly round trip', () => {
  it('every row of the synced ledger finds its line, and every value the file changes follows the stated rule', () => {
    const mapping = mapRows();
    console.log('koinly round trip, rows:', mapping.counts);
    expect(mapping.unexplained).toEqual([]);
    expect(mapping.counts['one Net Worth per line'] ?? 0).toBeGreaterThan(0);
    expect(mapping.counts['loan principal left out'] ?? 0, 'the sandbox has margin loans').toBeGreaterThan(0);
  });

  describe.each(['fifo', 'us', 'uk'] as const)('under --rules %s', (rules) => {
    it('every year: the imported figures are the synced ones less exactly what the format cannot carry', async () => {
      expect(years.length).toBeGreaterThanOrEqual(2);
      const mapping = mapRows();
      const table: Record<string, unknown>[] = [];
      for (const year of years) {
        const synced = await gainsOf(env.fresh.url, rules, year);
        const back = await gainsOf(imported.url, rules, year);
        // The replay is runGains' own matching (same stream, matcher, summary) ...
        expect(replay(syncedRows, rules, year), `${rules} ${year}: replay of the synced ledger`).toEqual(synced);
        expect(replay(importedRows, rules, year), `${rules} ${year}: replay of the imported ledger`).toEqual(back);
        // ... so each step's figures say what that item of the format does.
        const values = replay(project(mapping, 'values'), rules, year);
        const lines = replay(project(mapping, 'lines'), rules, year);
        const wallet = replay(project(mapping, 'wallet'), rules, year);
        table.push({ rules, year, disposals: `${synced.disposals} / ${back.disposals}`,
          'proceeds synced': synced.proceeds, 'cost synced': synced.cost,
          'values (proceeds/cost/net)': Object.values(minus(values, synced)).join(' / '),
          'lines': Object.values(minus(lines, values)).join(' / '),
          'one wallet': Object.values(minus(wallet, lines)).join(' / '),
          'total': Object.values(minus(back, synced)).join(' / ') });
        // Nothing is left unexplained: with the three items taken away, the synced ledger gives
        // the imported figures to the last digit.
        expect(back, `${rules} ${year}: imported = synced less what the format cannot carry`).toEqual(wallet);
      }
      console.table(table);
    }, 900_000);
  });

  it('a planted defect (the file\'s futures fee labels dropped) is a difference the items do not explain', async () => {
    const year = years[years.length - 2]!;
    const mapping = mapRows();
    const explained = replay(project(mapping, 'wallet'), 'fifo', year);
    const broken = await gainsOf(planted.url, 'fifo', year);
    expect(broken).not.toEqual(explained);
    console.log('planted defect, fifo', year, minus(broken, explained));
  }, 600_000);
});
