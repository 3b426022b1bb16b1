// Benchmark 4 (issue 3, Performance, "Peer"): tradeledger's first sync next to the most natural
// user script (peer/peerSync.ts: hand-made paging, sequential requests with a fixed pause of
// 1000 ms / rate, one INSERT per row), on the same sandbox with real rate limits. Both run as
// child processes over the same scope and are measured the same way (process wall time,
// requests and 429s from the sandbox's counters). Run by hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/syncPeer.bench.ts              # scale small
//   BENCH_SCALE=tiny npx tsx test/bench/syncPeer.bench.ts
//
// Scope: every non-demo account, streams marginRecords, taxSpotRecords, spotFills, deposits,
// transfers (the peer would need hundreds of lines for all 19 streams; this subset holds the
// slowest budgets, E5 and the tax endpoint at 1 request/s, and three faster ones).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { DAY_MS } from '../../src/api/endpoints.js';
import { configDefaults } from '../../src/cli/config/syncConfig.js';
import { sandboxAccounts } from '../../src/cli/config/sandboxAccounts.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { runSyncProcess, summaryTotals } from './support/runSyncProcess.js';
import { sandboxStats } from './support/sandboxStats.js';
import { sandboxSyncConfig } from './support/sandboxSyncConfig.js';
import { scratchDatabase } from './support/scratchDatabase.js';

const scale = process.env.BENCH_SCALE ?? 'small';
const streams = ['marginRecords', 'taxSpotRecords', 'spotFills', 'deposits', 'transfers'];
const peerScript = fileURLToPath(new URL('./peer/peerSync.ts', import.meta.url));

function runPeer(env: Record<string, string>): Promise<{ code: number | null; wallMs: number; out: string; err: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', peerScript], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += String(d); });
  child.stderr.on('data', (d) => { err = (err + String(d)).slice(-5000); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, wallMs: performance.now() - started, out, err })));
}

console.log(machineInfo());
console.log(`- sandbox: seed 1, scale ${scale}, real rate limits; scope: non-demo accounts, streams ${streams.join(', ')}\n`);
const sandbox = await startSandbox({ port: 0, seed: 1, scale, rateLimit: true });
const [ours, theirs] = [await scratchDatabase('peer_sync'), await scratchDatabase('peer_user')];
try {
  const { file, env } = sandboxSyncConfig(sandbox);
  const s0 = await sandboxStats(sandbox.baseUrl);
  const sync = await runSyncProcess(['--config', file, '--streams', streams.join(',')], { ...env, DATABASE_URL: ours.url });
  const s1 = await sandboxStats(sandbox.baseUrl);
  if (sync.code !== 0) console.log(`sync exited ${sync.code}; failed partitions:\n${sync.failures.join('\n') || sync.stderrTail.slice(-3000)}`);

  const peerAccounts = sandboxAccounts(sandbox.accounts).filter((a) => a.kind !== 'demo').map((a) => ({
    name: a.name, apiKey: a.credentials.apiKey, secret: a.credentials.secretKey, passphrase: a.credentials.passphrase,
  }));
  const since = Math.min(Date.now(), sandbox.world.now()) - configDefaults.historyDays * DAY_MS;
  const peer = await runPeer({ PEER_BASE_URL: sandbox.baseUrl, PEER_ACCOUNTS: JSON.stringify(peerAccounts), PEER_SINCE: String(since), DATABASE_URL: theirs.url });
  const s2 = await sandboxStats(sandbox.baseUrl);
  if (peer.code !== 0) console.log(`peer exited ${peer.code}:\n${peer.err}`);
  const peerOut = JSON.parse(peer.out.trim().split('\n').pop() || '{}') as { requests?: number; received?: number; stored?: number; perStream?: Record<string, number> };

  const syncS = sync.wallMs / 1000;
  const peerS = peer.wallMs / 1000;
  console.log(markdownTable(['client', 'wall s', 'requests', '429 answers', 'records stored'], [
    ['tradeledger sync', Number(syncS.toFixed(1)), s1.total - s0.total, s1.total429 - s0.total429, summaryTotals(sync.summary).records],
    ['peer script', Number(peerS.toFixed(1)), s2.total - s1.total, s2.total429 - s1.total429, peerOut.stored ?? 0],
  ]));
  const syncPerStream: Record<string, number> = {};
  for (const [label, c] of Object.entries(sync.summary?.counts ?? {})) {
    const stream = label.split('/')[1] ?? '';
    syncPerStream[stream] = (syncPerStream[stream] ?? 0) + c.inserted + c.updated + c.unchanged;
  }
  console.log(`\n${markdownTable(['stream', 'tradeledger records', 'peer records'], streams.map((s) => [s, syncPerStream[s] ?? 0, peerOut.perStream?.[s] ?? 0]))}`);
  console.log(`\nthe peer received ${peerOut.received ?? 0} records and stored ${peerOut.stored ?? 0}; it waited out ${(peerOut as { tooMany?: number }).tooMany ?? 0} answers of 429`);
  console.log(`\npeer / tradeledger wall time: ${(peerS / syncS).toFixed(2)}x`);
} finally {
  await ours.drop();
  await theirs.drop();
  await sandbox.close();
}
