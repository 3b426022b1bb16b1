// Issue 20 item 5: the sandbox's books balance. Every account's full history, read over HTTP
// exactly as a sync reads it, sums to every balance the sandbox reports: each spot bill's running
// balance, each futures account (E14), each margin record's total. No balance that the product
// keeps non-negative goes below zero.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { control, startTestSandbox, type RunningSandbox } from '../../support/sandbox.js';
import { call, type TestKey } from '../../support/signedClient.js';

const DAY = 86_400_000;
const HISTORY_DAYS = 732;

interface Page { path: string; query?: Record<string, string>; spanDays?: number; limit: number; list: (data: any) => any[]; id: string; cursor?: (data: any) => string }

/** Every record of one stream: windows oldest to newest, pages newest to oldest (idLessThan). */
async function readAll(baseUrl: string, key: TestKey, p: Page, now: number): Promise<any[]> {
  const out: any[] = [];
  const start = now - HISTORY_DAYS * DAY;
  const span = (p.spanDays ?? HISTORY_DAYS + 1) * DAY;
  for (let from = start; from < now + 1; from += span) {
    const to = Math.min(from + span, now + 1);
    let cursor: string | undefined;
    for (;;) {
      const query = { ...p.query, startTime: String(from), endTime: String(to), limit: String(p.limit), ...(cursor ? { idLessThan: cursor } : {}) };
      const r = await call(baseUrl, key, p.path, { query });
      expect(r.json?.code, `${p.path} ${JSON.stringify(query)}: ${r.text.slice(0, 300)}`).toBe('00000');
      const page = p.list(r.json!.data);
      out.push(...page);
      if (page.length < p.limit) break;
      cursor = p.cursor ? p.cursor(r.json!.data) : String(page.at(-1)[p.id]);
    }
  }
  return out;
}

const plain = (d: any): any[] => d as any[];
const dec = (x: string | undefined): Decimal => new Decimal(x === undefined || x === '' ? 0 : x);
const abs = (x: string): Decimal => dec(x).abs();

/** One history movement, as the ledger reads it (sql/migrations/0050_ledger_fee_time.sql). */
interface Movement { uid: string; wallet: string; coin: string; t: number; amount: Decimal; what: string }

const spotMarkets: Record<string, [string, string]> = {};
async function loadSymbols(baseUrl: string): Promise<void> {
  const r = await call(baseUrl, null, '/api/v2/spot/public/symbols');
  for (const s of r.json!.data as { symbol: string; baseCoin: string; quoteCoin: string }[]) spotMarkets[s.symbol] = [s.baseCoin, s.quoteCoin];
}

function fillMovements(uid: string, f: any): Movement[] {
  const [base, quote] = spotMarkets[f.symbol]!;
  const buy = f.side === 'buy';
  const t = Number(f.cTime);
  const out: Movement[] = [
    { uid, wallet: 'spot', coin: base, t, amount: buy ? dec(f.size) : dec(f.size).neg(), what: `fill ${f.tradeId} base` },
    { uid, wallet: 'spot', coin: quote, t, amount: buy ? dec(f.amount).neg() : dec(f.amount), what: `fill ${f.tradeId} quote` },
  ];
  const fd = f.feeDetail;
  // src/normalize/README.md: a deduction is a charge of |totalDeductionFee|; otherwise totalFee
  // is signed, negative a charge, positive a rebate.
  const fee = fd.deduction === 'yes' ? abs(fd.totalDeductionFee).neg() : dec(fd.totalFee);
  if (!fee.isZero()) out.push({ uid, wallet: 'spot', coin: fd.feeCoin, t, amount: fee, what: `fill ${f.tradeId} fee` });
  return out;
}

interface Books {
  accounts: AccountLine[];
  movements: Movement[];
  spotBills: Map<string, any[]>;
  /** Per account and product type: its futures bills and its E14 accounts. */
  futures: { uid: string; demo: boolean; productType: string; bills: any[]; accounts: any[] }[];
  /** Per account and margin type: its margin records. */
  margin: { uid: string; marginType: string; records: any[] }[];
}

const realTypes = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
const demoTypes = ['SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES'];

/** Reads every account's history over HTTP. */
async function readBooks(sandbox: RunningSandbox): Promise<Books> {
  await loadSymbols(sandbox.baseUrl);
  const now = Date.now();
  const byUid = new Map<string, AccountLine>();
  for (const a of sandbox.accounts) if (a.perms.includes('read') && !byUid.has(a.uid)) byUid.set(a.uid, a);
  const accounts = [...byUid.values()];
  const movements: Movement[] = [];
  const spotBills = new Map<string, any[]>();
  const transfers = new Map<string, { initiator: string; t: any }>();
  const futures: Books['futures'] = [];
  const margin: Books['margin'] = [];
  for (const a of accounts) {
    const key = { ...a, demo: a.demo };
    const get = (p: Page): Promise<any[]> => readAll(sandbox.baseUrl, key, p, now);
    for (const productType of a.demo ? demoTypes : realTypes) {
      const bills = await get({ path: '/api/v2/mix/account/bill', query: { productType }, spanDays: 30, limit: 100, list: (d) => d.bills, id: 'billId', cursor: (d) => d.endId });
      const r = await call(sandbox.baseUrl, key, '/api/v2/mix/account/accounts', { query: { productType } });
      expect(r.json?.code, r.text.slice(0, 300)).toBe('00000');
      futures.push({ uid: a.uid, demo: a.demo, productType, bills: bills.reverse(), accounts: r.json!.data });
    }
    if (a.demo) continue;
    for (const marginType of ['crossed', 'isolated']) {
      const records = await get({ path: '/api/v2/tax/margin-record', query: { marginType }, spanDays: 30, limit: 500, list: plain, id: 'id' });
      margin.push({ uid: a.uid, marginType, records: records.reverse() });
    }
    for (const f of await get({ path: '/api/v2/spot/trade/fills', spanDays: 90, limit: 100, list: plain, id: 'tradeId' })) movements.push(...fillMovements(a.uid, f));
    for (const d of await get({ path: '/api/v2/spot/wallet/deposit-records', limit: 100, list: plain, id: 'orderId' })) {
      if (d.status === 'success') movements.push({ uid: a.uid, wallet: 'spot', coin: d.coin, t: Number(d.cTime), amount: abs(d.size), what: `deposit ${d.orderId}` });
    }
    for (const w of await get({ path: '/api/v2/spot/wallet/withdrawal-records', limit: 100, list: plain, id: 'orderId' })) {
      if (w.status === 'success') movements.push({ uid: a.uid, wallet: 'spot', coin: w.coin, t: Number(w.cTime), amount: abs(w.size).plus(abs(w.fee)).neg(), what: `withdrawal ${w.orderId}` });
    }
    const subQueries = a.main ? [{}, ...a.subUids.map((subUid) => ({ subUid }))] : [{}];
    for (const q of subQueries) {
      for (const t of await get({ path: '/api/v2/spot/account/sub-main-trans-record', query: q, spanDays: 90, limit: 100, list: plain, id: 'transferId' })) {
        if (!transfers.has(t.transferId)) transfers.set(t.transferId, { initiator: a.uid, t });
      }
    }
    spotBills.set(a.uid, (await get({ path: '/api/v2/spot/account/bills', spanDays: 90, limit: 500, list: plain, id: 'billId' })).reverse());
  }
  // The ledger reads each transfer once (by id), its from side in the sender's wallet and its to
  // side in the receiver's; futures and margin sides come from those wallets' own records.
  for (const { initiator, t } of transfers.values()) {
    if (t.status !== 'Successful') continue;
    const from = t.fromUserId || initiator;
    const to = t.toUserId || initiator;
    const time = Number(t.ts);
    if (t.fromType === 'spot') movements.push({ uid: from, wallet: 'spot', coin: t.coin, t: time, amount: abs(t.size).neg(), what: `transfer ${t.transferId} out` });
    if (t.toType === 'spot') movements.push({ uid: to, wallet: 'spot', coin: t.coin, t: time, amount: abs(t.size), what: `transfer ${t.transferId} in` });
  }
  return { accounts, movements, spotBills, futures, margin };
}

const byTime = (field: string, id: string) => (x: any, y: any): number =>
  Number(x[field]) - Number(y[field]) || (BigInt(x[id]) < BigInt(y[id]) ? -1 : BigInt(x[id]) > BigInt(y[id]) ? 1 : 0);

function checkFutures(books: Books): number {
  let checked = 0;
  for (const f of books.futures) {
    const running = new Map<string, Decimal>();
    for (const b of [...f.bills].sort(byTime('cTime', 'billId'))) {
      const where = `account ${f.uid} ${f.productType} bill ${b.billId} (${b.coin} ${b.businessType} ${b.amount} fee ${b.fee})`;
      if (f.demo) expect(b.coin, `${where}: a demo account trades demo coins`).toMatch(/^S/);
      // The ledger reads a futures bill as amount + fee (feeByCoupon is paid by a coupon).
      const after = (running.get(b.coin) ?? new Decimal(0)).plus(dec(b.amount)).plus(dec(b.fee));
      running.set(b.coin, after);
      expect(dec(b.balance).toFixed(), `${where}: balance is the running sum of the bills`).toBe(after.toFixed());
      expect(after.isNegative(), `${where}: futures balance below zero`).toBe(false);
      checked++;
    }
    for (const acc of f.accounts) {
      const where = `account ${f.uid} ${f.productType} ${acc.marginCoin} (E14)`;
      if (f.demo) expect(acc.marginCoin, `${where}: demo coins`).toMatch(/^S/);
      const sum = running.get(acc.marginCoin) ?? new Decimal(0);
      // The reconciliation's futures snapshot: accountEquity - unrealizedPL is the wallet balance.
      expect(dec(acc.accountEquity).minus(dec(acc.unrealizedPL)).toFixed(), `${where}: equity - unrealized PnL is the sum of the futures bills`).toBe(sum.toFixed());
      expect(dec(acc.available).isNegative() || dec(acc.accountEquity).isNegative() || dec(acc.available).gt(sum), `${where}: available within 0..balance, equity >= 0`).toBe(false);
      expect(acc.assetList[0].balance, `${where}: assetList balance`).toBe(sum.toFixed());
      checked++;
    }
    for (const coin of running.keys()) expect(f.accounts.map((a: any) => a.marginCoin), `account ${f.uid} ${f.productType}: bills in ${coin} but no E14 account`).toContain(coin);
  }
  return checked;
}

const marginIn = new Set(['transfer_in', 'borrow', 'compensate', 'deal_in', 'exchange_in']);
const marginOut = new Set(['transfer_out', 'repay', 'interest_repay', 'liquidation_fee', 'confiscated', 'deal_out', 'exchange_out']);

function checkMargin(books: Books): number {
  let checked = 0;
  for (const m of books.margin) {
    const running = new Map<string, Decimal>();
    for (const r of [...m.records].sort(byTime('ts', 'id'))) {
      const where = `account ${m.uid} ${m.marginType} margin record ${r.id} (${r.coin} ${r.marginTaxType} ${r.amount} fee ${r.fee})`;
      // As the ledger reads E5: the type gives the sign; a fee is a charge.
      const amount = marginIn.has(r.marginTaxType) ? abs(r.amount) : marginOut.has(r.marginTaxType) ? abs(r.amount).neg() : dec(r.amount);
      const after = (running.get(r.coin) ?? new Decimal(0)).plus(amount).minus(abs(r.fee));
      running.set(r.coin, after);
      expect(dec(r.total).toFixed(), `${where}: total is the running sum of the records`).toBe(after.toFixed());
      // Borrowed coins count in the wallet's assets, so even borrowing keeps them >= 0.
      expect(after.isNegative(), `${where}: margin assets below zero`).toBe(false);
      checked++;
    }
  }
  return checked;
}

/** Bills in time order (the API pages newest first; readAll reversed each account's list). */
function sortedBills(bills: any[]): any[] {
  return [...bills].sort((x, y) => Number(x.cTime) - Number(y.cTime) || (BigInt(x.billId) < BigInt(y.billId) ? -1 : 1));
}

function checkSpot(books: Books): { bills: number; checkedAgainstHistory: number } {
  let bills = 0;
  let checked = 0;
  for (const [uid, raw] of books.spotBills) {
    const list = sortedBills(raw);
    expect(list.length, `account ${uid} has spot bills`).toBeGreaterThan(0);
    const running = new Map<string, Decimal>();
    const history = new Map<string, { t: number; amount: Decimal }[]>();
    for (const m of books.movements) {
      if (m.uid !== uid || m.wallet !== 'spot') continue;
      if (!history.has(m.coin)) history.set(m.coin, []);
      history.get(m.coin)!.push(m);
    }
    const sumUpTo = (coin: string, t: number): Decimal => (history.get(coin) ?? []).filter((m) => m.t <= t).reduce((s, m) => s.plus(m.amount), new Decimal(0));
    list.forEach((b, i) => {
      bills++;
      const before = running.get(b.coin) ?? new Decimal(0);
      const after = before.plus(dec(b.size)).plus(dec(b.fees));
      running.set(b.coin, after);
      if (!('balance' in b)) return; // the deliberately bad bill (badRecords.ts)
      const where = `account ${uid} bill ${b.billId} (${b.coin} ${b.businessType} ${b.size} at ${b.cTime})`;
      // Running: each balance is the previous one plus this bill's size and fees, from zero.
      expect(dec(b.balance).toFixed(), `${where}: balance is the running sum of the bills`).toBe(after.toFixed());
      expect(dec(b.balance).isNegative(), `${where}: spot balance below zero`).toBe(false);
      // History: the last bill of its coin at its ms equals the history's sum up to that ms.
      const next = list.slice(i + 1).find((x) => x.coin === b.coin);
      if (next === undefined || Number(next.cTime) > Number(b.cTime)) {
        checked++;
        expect(dec(b.balance).toFixed(), `${where}: balance is the sum of the history's movements up to it`).toBe(sumUpTo(b.coin, Number(b.cTime)).toFixed());
      }
    });
    // Every coin the history moves has bills, and the last bill holds the whole history.
    for (const [coin, ms] of history) {
      const last = [...list].reverse().find((b) => b.coin === coin && 'balance' in b);
      expect(last, `account ${uid}: ${coin} moves in the history (${ms.length} movements) but has no spot bill`).toBeDefined();
      expect(dec(last!.balance).toFixed(), `account ${uid} ${coin}: last bill vs whole history`).toBe(sumUpTo(coin, Number.MAX_SAFE_INTEGER).toFixed());
    }
  }
  return { bills, checkedAgainstHistory: checked };
}

describe.each([
  { seed: 1, scale: 'tiny' },
  { seed: 5, scale: 'tiny' },
  { seed: 3, scale: 'small' },
])('seed $seed, $scale: the books balance over HTTP', ({ seed, scale }) => {
  let sandbox: RunningSandbox;
  let books: Books;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed, scale });
    books = await readBooks(sandbox);
  }, 600_000);
  afterAll(() => sandbox.close());

  it('every spot bill\'s running balance is the sum of the spot history up to it, never below zero', () => {
    const { bills, checkedAgainstHistory } = checkSpot(books);
    expect(bills).toBeGreaterThan(100);
    expect(checkedAgainstHistory).toBeGreaterThan(50);
  });

  it('every futures bill\'s balance is the running sum of the bills per margin coin, and E14 equity - unrealized PnL is their total', () => {
    expect(checkFutures(books)).toBeGreaterThan(50);
    expect(books.futures.some((f) => f.demo && f.bills.length > 0), 'the demo account has futures bills').toBe(true);
  });

  it('every margin record\'s total is the running sum of the margin records per coin (borrow, repay, interest included)', () => {
    expect(checkMargin(books)).toBeGreaterThan(20);
  });
});

describe('writes keep the books balanced (E1, E18, E9)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 2, scale: 'tiny' });
  });
  afterAll(() => sandbox.close());

  it('a market buy, a settled on-chain withdrawal and a settled broker withdrawal leave bills that sum with the history', async () => {
    const main = sandbox.accounts.find((a) => a.main && a.broker && a.perms.length === 4)!;
    const sub = sandbox.accounts.find((a) => !a.main && !a.demo && main.subUids.includes(a.uid) && a.perms.includes('read'))!;
    const buy = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', size: '150', clientOid: 'books-buy-1' } });
    expect(buy.json?.code, buy.text).toBe('00000');
    const w = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/withdrawal', { body: { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: 'TXbooks', size: '25', clientOid: 'books-w1' } });
    expect(w.json?.code, w.text).toBe('00000');
    expect(await control(sandbox, 'settle', { uid: main.uid, resource: 'withdrawals', id: w.json!.data.orderId })).toEqual({ settled: true });
    const e9 = await call(sandbox.baseUrl, main, '/api/v2/broker/account/subaccount-withdrawal', { body: { subUid: sub.uid, coin: 'BTC', dest: 'internal_transfer', address: main.uid, amount: '0.001' } });
    expect(e9.json?.code, e9.text).toBe('00000');
    expect(await control(sandbox, 'settle', { uid: sub.uid, resource: 'withdrawals', id: e9.json!.data.orderId })).toEqual({ settled: true });
    const books = await readBooks(sandbox);
    const mainBills = books.spotBills.get(main.uid)!;
    expect(mainBills.some((b) => b.businessType === 'withdraw' && b.size === '-25' && b.fees === '-1'), 'the withdrawal left a bill of size and fee').toBe(true);
    expect(mainBills.filter((b) => b.coin === 'BTC' && b.businessType === 'deposit' && b.size === '0.001'), 'the broker withdrawal reached main as a deposit').toHaveLength(1);
    checkSpot(books);
  });

  it('refuses an order or a withdrawal the spot wallet cannot pay, naming the balance', async () => {
    const main = sandbox.accounts.find((a) => a.main && a.broker && a.perms.length === 4)!;
    const big = await call(sandbox.baseUrl, main, '/api/v2/spot/trade/place-order', { body: { symbol: 'BTCUSDT', side: 'sell', orderType: 'market', size: '100000' } });
    expect(big.json?.code).toBe('40017');
    expect(big.json?.msg).toMatch(/insufficient balance.*BTC/);
    const w = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/withdrawal', { body: { coin: 'ETH', transferType: 'on_chain', chain: 'ERC20', address: '0xbooks', size: '1000000' } });
    expect(w.json?.code).toBe('40017');
    expect(w.json?.msg).toMatch(/insufficient balance.*ETH/);
  });
});
