// The peer: the script a user would most naturally write to copy their history into
// PostgreSQL without tradeledger. It follows the exchange docs literally: sign each request,
// walk each endpoint's time windows oldest to newest and its pages with idLessThan, one request
// at a time with a fixed pause of 1000 ms / the endpoint's rate after each, and insert every row
// with its own INSERT. Deliberately plain: no concurrency, no bulk load; the one retry rule a
// user adds after the first crash: on "429 Too Many Requests", wait a second and ask again.
//
//   PEER_BASE_URL=http://127.0.0.1:PORT PEER_ACCOUNTS='[{"name":..,"apiKey":..,"secret":..,"passphrase":..}]' \
//   PEER_SINCE=<unix ms> DATABASE_URL=postgres://... npx tsx test/bench/peer/peerSync.ts
//
// Streams: the subset syncPeer.bench.ts compares (margin records, tax spot records, spot fills,
// deposits, transfers). Prints one JSON line {requests, tooMany, received, stored, perStream} at the end.
import { createHmac } from 'node:crypto';
import pg from 'pg';

interface Account { name: string; apiKey: string; secret: string; passphrase: string }

const DAY = 24 * 60 * 60 * 1000;
const baseUrl = process.env.PEER_BASE_URL!;
const accounts = JSON.parse(process.env.PEER_ACCOUNTS!) as Account[];
const since = Number(process.env.PEER_SINCE);
const until = Date.now();

// What the docs say about each endpoint: path, rate per second, max span, max page size, where
// the id is, plus the extra parameters each call needs.
const endpoints = [
  { name: 'marginRecords', path: '/api/v2/tax/margin-record', rate: 1, spanDays: 30, limit: 500, id: 'id', variants: [{ marginType: 'crossed' }, { marginType: 'isolated' }] },
  { name: 'taxSpotRecords', path: '/api/v2/tax/spot-record', rate: 1, spanDays: 30, limit: 500, id: 'id', variants: [{}] },
  { name: 'spotFills', path: '/api/v2/spot/trade/fills', rate: 10, spanDays: 90, limit: 100, id: 'tradeId', variants: [{}] },
  { name: 'deposits', path: '/api/v2/spot/wallet/deposit-records', rate: 10, spanDays: 730, limit: 100, id: 'orderId', variants: [{}] },
  { name: 'transfers', path: '/api/v2/spot/account/sub-main-trans-record', rate: 20, spanDays: 90, limit: 100, id: 'transferId', variants: [{}] },
];

let tooMany = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get(account: Account, path: string, params: Record<string, string>): Promise<any[]> {
  const query = Object.keys(params).sort().map((k) => `${k}=${encodeURIComponent(params[k]!)}`).join('&');
  const timestamp = String(Date.now());
  const sign = createHmac('sha256', account.secret).update(`${timestamp}GET${path}?${query}`).digest('base64');
  const res = await fetch(`${baseUrl}${path}?${query}`, {
    headers: {
      'ACCESS-KEY': account.apiKey, 'ACCESS-SIGN': sign, 'ACCESS-TIMESTAMP': timestamp,
      'ACCESS-PASSPHRASE': account.passphrase, 'Content-Type': 'application/json', locale: 'en-US',
    },
  });
  const body = await res.json() as { code: string; msg: string; data: any };
  if (body.code === '429') {
    tooMany++;
    await sleep(1000);
    return get(account, path, params);
  }
  if (body.code !== '00000') throw new Error(`${path}: ${body.code} ${body.msg}`);
  return Array.isArray(body.data) ? body.data : [];
}

const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
await db.connect();
await db.query(`CREATE TABLE IF NOT EXISTS peer_records (
  account text NOT NULL, stream text NOT NULL, id text NOT NULL, raw jsonb NOT NULL, PRIMARY KEY (account, stream, id))`);

let requests = 0;
let received = 0;
let stored = 0;
const perStream: Record<string, number> = {};
for (const account of accounts) {
  for (const e of endpoints) {
    for (const variant of e.variants) {
      for (let start = since; start < until; start += e.spanDays * DAY) {
        const end = Math.min(start + e.spanDays * DAY, until);
        let cursor: string | undefined;
        for (;;) {
          const params: Record<string, string> = { ...variant, startTime: String(start), endTime: String(end), limit: String(e.limit) };
          if (cursor) params.idLessThan = cursor;
          const page = await get(account, e.path, params);
          requests++;
          for (const record of page) {
            const res = await db.query('INSERT INTO peer_records (account, stream, id, raw) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
              [account.name, e.name, String(record[e.id]), JSON.stringify(record)]);
            received++;
            stored += res.rowCount ?? 0;
            perStream[e.name] = (perStream[e.name] ?? 0) + (res.rowCount ?? 0);
          }
          await sleep(1000 / e.rate);
          if (page.length < e.limit) break;
          cursor = String(page[page.length - 1][e.id]);
        }
      }
    }
  }
}
await db.end();
console.log(JSON.stringify({ requests, tooMany, received, stored, perStream }));
