/**
 * Measures how many history records/s the sandbox serves to one keep-alive client with rate
 * limits off (target: 30,000/s). Run by hand, not part of the suite:
 *
 *   node --import tsx test/sandbox/server/measureThroughput.ts [scale]
 *
 * The server runs as `tradeledger sandbox` in its own process, so client and server do not
 * share an event loop. Prints one row per endpoint: pages, records, seconds, records/s.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { call } from '../../support/signedClient.js';

const DAY = 86_400_000;
const scale = process.argv[2] ?? 'large';
const started = performance.now();
const proc = spawn(process.execPath, [join(import.meta.dirname, '../../../bin/tradeledger.js'), 'sandbox', '--scale', scale, '--no-rate-limit'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((resolve) => {
  let out = '';
  proc.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n'))); });
});
const startupS = (performance.now() - started) / 1000;
const { baseUrl, accounts } = JSON.parse(line) as { baseUrl: string; accounts: { apiKey: string; secretKey: string; passphrase: string; perms: string[]; main: boolean; broker: boolean }[] };
const key = accounts.find((a) => a.main && a.broker && a.perms.length === 4)!;

interface Walk { name: string; path: string; query: Record<string, string>; list: (d: any) => any[]; cursor: (d: any) => string; spanDays: number; days: number }
const walks: Walk[] = [
  { name: 'X4 spot bills (100/page)', path: '/api/v2/spot/account/bills', query: { limit: '100' }, list: (d) => d, cursor: (d) => d.at(-1).billId, spanDays: 90, days: 720 },
  { name: 'X4 spot bills (500/page)', path: '/api/v2/spot/account/bills', query: { limit: '500' }, list: (d) => d, cursor: (d) => d.at(-1).billId, spanDays: 90, days: 720 },
  { name: 'E5 margin records (500/page)', path: '/api/v2/tax/margin-record', query: { limit: '500' }, list: (d) => d, cursor: (d) => d.at(-1).id, spanDays: 30, days: 720 },
  { name: 'X2 spot fills (100/page)', path: '/api/v2/spot/trade/fills', query: { limit: '100' }, list: (d) => d, cursor: (d) => d.at(-1).tradeId, spanDays: 90, days: 720 },
  { name: 'E21 futures orders (100/page)', path: '/api/v2/mix/order/orders-history', query: { limit: '100', productType: 'USDT-FUTURES' }, list: (d) => d.entrustedList, cursor: (d) => d.endId, spanDays: 89, days: 89 },
];

console.log(`scale ${scale}: startup ${startupS.toFixed(1)} s`);
console.log('| endpoint | pages | records | seconds | records/s |');
console.log('|---|---:|---:|---:|---:|');
for (const [pass, w] of [...walks.map((w) => ['cold', w] as const), ...walks.map((w) => ['warm', w] as const)]) {
  const end = Date.now();
  let pages = 0;
  let records = 0;
  const t0 = performance.now();
  for (let s = end - w.days * DAY; s < end; s += w.spanDays * DAY) {
    let cursor: string | undefined;
    for (;;) {
      const r = await call(baseUrl, key, w.path, { query: { ...w.query, startTime: String(s), endTime: String(Math.min(s + w.spanDays * DAY, end)), ...(cursor ? { idLessThan: cursor } : {}) } });
      if (r.json?.code !== '00000') throw new Error(`${w.path}: ${r.text.slice(0, 200)}`);
      const list = w.list(r.json.data);
      pages++;
      records += list.length;
      if (list.length < Number(w.query.limit)) break;
      cursor = w.cursor(r.json.data);
    }
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`| ${w.name}, ${pass} | ${pages} | ${records} | ${secs.toFixed(2)} | ${Math.round(records / secs)} |`);
}
const rss = await import('node:fs').then((fs) => fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)?.[1]);
console.log(`server peak RSS: ${Math.round(Number(rss) / 1024)} MB`);
proc.kill('SIGTERM');
