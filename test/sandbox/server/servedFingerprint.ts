import { createHash, type Hash } from 'node:crypto';
import { startSandbox } from '../../../src/sandbox/startSandbox.js';
import type { AccountLine } from '../../../src/sandbox/server/describeAccounts.js';
import { call, type TestKey } from '../../support/signedClient.js';

/**
 * sha256 fingerprints of every byte a sandbox serves for one (seed, scale): the ground truth
 * (GET /_sandbox/truth), the exact text of every page of a full paging pass over the main
 * account's history endpoints, and both again after `advance` (growth chunks, settling).
 * The world is frozen at `anchor`, and requests are signed at that time, so the texts
 * (requestTime included) do not depend on the clock.
 *
 * Run by hand to print the fingerprints (see servedBytes.test.ts for why and when):
 *
 *   npx tsx test/sandbox/server/servedFingerprint.ts 1 small
 */
export interface Fingerprint {
  truth: string;
  pages: string;
  truthAfterAdvance: string;
  pagesAfterAdvance: string;
  /** Sizes, so a mismatch report says more than "hash differs". */
  truthLines: number;
  pageCount: number;
  pageRecords: number;
}

export const anchor = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
/** Generated history reaches 730 days back (seriesBook.ts); one extra day covers the edges. */
const historyDays = 731;

interface Walk {
  path: string;
  query: Record<string, string>;
  limit: number;
  /** Window span in days; undefined = one window over all history. */
  spanDays?: number;
  horizonDays?: number;
  list: (data: any) => any[];
  cursor: (data: any) => string | null;
}

const lastOf = (field: string) => (data: any[]) => (data.length === 0 ? null : String(data.at(-1)[field]));
const plain = (data: any) => data as any[];
const spotSymbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BGBUSDT', 'XRPUSDT', 'LTCUSDT', 'TRXUSDT', 'DOGEUSDT', 'ETHBTC', 'BTCUSDC', '$WIFUSDT'];
const productTypes = ['USDT-FUTURES', 'USDC-FUTURES', 'COIN-FUTURES'];

/**
 * Every history endpoint of a main account, walked as the sync walks it (windows oldest to
 * newest within the span, pages newest to oldest by the cursor), at the largest page size.
 * Hard-coded here rather than read from src/extract so that only sandbox changes move the hashes.
 */
const walks: Walk[] = [
  { path: '/api/v2/spot/trade/history-orders', query: {}, limit: 100, spanDays: 90, horizonDays: 90, list: plain, cursor: lastOf('orderId') },
  { path: '/api/v2/spot/trade/fills', query: {}, limit: 100, spanDays: 90, list: plain, cursor: lastOf('tradeId') },
  { path: '/api/v2/spot/account/bills', query: {}, limit: 500, spanDays: 90, list: plain, cursor: lastOf('billId') },
  ...['crossed', 'isolated'].map((marginType): Walk => ({ path: '/api/v2/tax/margin-record', query: { marginType }, limit: 500, spanDays: 30, list: plain, cursor: lastOf('id') })),
  ...spotSymbols.map((symbol): Walk => ({ path: '/api/v2/margin/crossed/open-orders', query: { symbol }, limit: 100, list: (d) => d.orderList, cursor: (d) => d.minId })),
  ...productTypes.flatMap((productType): Walk[] => [
    { path: '/api/v2/mix/order/orders-history', query: { productType }, limit: 100, spanDays: 90, horizonDays: 90, list: (d) => d.entrustedList, cursor: (d) => d.endId },
    { path: '/api/v2/mix/order/fills', query: { productType }, limit: 100, spanDays: 90, list: (d) => d.fillList, cursor: (d) => d.endId },
    { path: '/api/v2/mix/account/bill', query: { productType }, limit: 100, spanDays: 30, list: (d) => d.bills, cursor: (d) => d.endId },
    ...['normal_plan', 'track_plan', 'profit_loss'].map((planType): Walk => ({
      path: '/api/v2/mix/order/orders-plan-pending', query: { productType, planType }, limit: 100, spanDays: 90, list: (d) => d.entrustedList, cursor: (d) => d.endId,
    })),
  ]),
  { path: '/api/v2/spot/wallet/deposit-records', query: {}, limit: 100, list: plain, cursor: lastOf('orderId') },
  { path: '/api/v2/spot/wallet/withdrawal-records', query: {}, limit: 100, list: plain, cursor: lastOf('orderId') },
  { path: '/api/v2/spot/account/sub-main-trans-record', query: {}, limit: 100, spanDays: 90, list: plain, cursor: lastOf('transferId') },
  { path: '/api/v2/tax/spot-record', query: {}, limit: 500, spanDays: 30, list: plain, cursor: lastOf('id') },
  { path: '/api/v2/tax/future-record', query: {}, limit: 500, spanDays: 30, list: plain, cursor: lastOf('id') },
];

async function pagePass(baseUrl: string, key: TestKey, now: number, hash: Hash): Promise<{ pages: number; records: number }> {
  let pages = 0;
  let records = 0;
  const end = now + 1;
  for (const w of walks) {
    // Inside the horizon by a minute, as the sync keeps a margin.
    let from = w.horizonDays === undefined ? now - historyDays * DAY : now - w.horizonDays * DAY + 60_000;
    while (from < end) {
      const to = w.spanDays === undefined ? end : Math.min(end, from + w.spanDays * DAY);
      let cursor: string | null = null;
      for (;;) {
        const query: Record<string, string> = { ...w.query, startTime: String(from), endTime: String(to), limit: String(w.limit), ...(cursor === null ? {} : { idLessThan: cursor }) };
        const r = await call(baseUrl, key, w.path, { query, timestamp: String(now) });
        if (r.json?.code !== '00000') throw new Error(`${w.path} ${JSON.stringify(query)}: ${r.status} ${r.text.slice(0, 300)}`);
        hash.update(`${w.path}?${JSON.stringify(query)}\n${r.text}\n`);
        const list = w.list(r.json.data);
        pages++;
        records += list.length;
        if (list.length < w.limit) break;
        cursor = w.cursor(r.json.data);
        if (cursor === null) throw new Error(`${w.path}: a full page without a cursor`);
      }
      from = to;
    }
  }
  return { pages, records };
}

async function truthOf(baseUrl: string, hash: Hash): Promise<number> {
  const res = await fetch(`${baseUrl}/_sandbox/truth`);
  if (!res.ok || res.body === null) throw new Error(`/_sandbox/truth answered ${res.status}`);
  let lines = 0;
  for await (const chunk of res.body) {
    hash.update(chunk);
    for (const byte of chunk as Uint8Array) if (byte === 10) lines++;
  }
  return lines;
}

/**
 * The fingerprint of a (seed, scale) world frozen at `anchor`.
 *
 * @example
 * const f = await servedFingerprint(1, 'small'); // { truth: 'ab12...', pages: '...', ... }
 */
export async function servedFingerprint(seed: number, scale: string): Promise<Fingerprint> {
  const sandbox = await startSandbox({ port: 0, seed, scale, now: anchor, rateLimit: false });
  try {
    const line: AccountLine | undefined = sandbox.accounts.find((a) => a.main && a.broker && a.perms.length === 4);
    if (line === undefined) throw new Error('no full broker main key');
    const digest = async (f: (h: Hash) => Promise<unknown>): Promise<string> => {
      const h = createHash('sha256');
      await f(h);
      return h.digest('hex');
    };
    let truthLines = 0;
    let pass = { pages: 0, records: 0 };
    const truth = await digest(async (h) => { truthLines = await truthOf(sandbox.baseUrl, h); });
    const pages = await digest(async (h) => { pass = await pagePass(sandbox.baseUrl, line, sandbox.world.now(), h); });
    // Three days and a bit: new chunks in every series, open records settled (spot orders leave fills).
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/advance`, { method: 'POST', body: JSON.stringify({ ms: 3 * DAY + 12_345 }) });
    if (!res.ok) throw new Error(`advance answered ${res.status}`);
    const truthAfterAdvance = await digest((h) => truthOf(sandbox.baseUrl, h));
    const pagesAfterAdvance = await digest((h) => pagePass(sandbox.baseUrl, line, sandbox.world.now(), h));
    return { truth, pages, truthAfterAdvance, pagesAfterAdvance, truthLines, pageCount: pass.pages, pageRecords: pass.records };
  } finally {
    await sandbox.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\0')) {
  const seed = Number(process.argv[2] ?? 1);
  const scale = process.argv[3] ?? 'small';
  console.log(JSON.stringify({ seed, scale, ...(await servedFingerprint(seed, scale)) }));
}
