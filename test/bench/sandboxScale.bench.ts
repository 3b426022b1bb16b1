// Sandbox world scale benchmark: build time, memory and query speed per scale preset. Run by
// hand, results go to BENCHMARKS.md:
//
//   npx tsx test/bench/sandboxScale.bench.ts                 # tiny, small, medium, large
//   BENCH_SCALES=large,xl npx tsx test/bench/sandboxScale.bench.ts
//
// Each scale runs in a fresh child process so its RSS is its own. "build" is createWorld();
// "query" is 1,000 window queries (limit 100, a random 30-day window of a random series) after
// a warm-up; "truth" walks every record once (what `--truth FILE` does, minus the writing).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createWorld } from '../../src/sandbox/data/createWorld.js';
import { recordRng } from '../../src/sandbox/data/rng.js';
import type { HistoryResource } from '../../src/sandbox/world.js';
import { historyResources } from '../../src/sandbox/data/scalePlan.js';

const DAY = 86_400_000;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

interface Result { scale: string; records: number; buildMs: number; rssAfterBuildMb: string; queryUs: number; truthS: number; truthCpuS: number; truthUsPerRecord: number; peakRssMb: string }

function child(scale: string): Result {
  const now = Date.UTC(2026, 9, 1);
  const t0 = performance.now();
  const world = createWorld({ seed: 1, scale, now });
  const buildMs = performance.now() - t0;
  const rssAfterBuildMb = mb(process.memoryUsage().rss);
  const series: { uid: string; resource: HistoryResource; partition: string }[] = [];
  let records = 0;
  for (const a of world.accounts) {
    for (const resource of historyResources) {
      for (const partition of world.partitions(resource)) {
        const size = world.series(a.uid, resource, partition).size;
        records += size;
        if (size > 0) series.push({ uid: a.uid, resource, partition });
      }
    }
  }
  const rng = recordRng(7, 0);
  const runQueries = (n: number): void => {
    for (let i = 0; i < n; i++) {
      const s = series[rng.int(series.length)]!;
      const start = now - rng.int(700) * DAY;
      world.series(s.uid, s.resource, s.partition).query({ startTime: start, endTime: start + 30 * DAY, limit: 100 });
    }
  };
  runQueries(200);
  const tq = performance.now();
  runQueries(1000);
  const queryUs = ((performance.now() - tq) * 1000) / 1000;
  const tt = performance.now();
  const cpu = process.cpuUsage();
  let walked = 0;
  for (const _ of world.truth()) walked++;
  const truthS = (performance.now() - tt) / 1000;
  // CPU time as well as wall time: on a busy shared machine the wall clock mostly measures others.
  const truthCpuS = process.cpuUsage(cpu).user / 1e6;
  if (walked !== records) throw new Error(`truth walked ${walked} records, series hold ${records}`);
  return {
    scale, records, buildMs: Math.round(buildMs), rssAfterBuildMb, queryUs: Math.round(queryUs), truthS: Number(truthS.toFixed(1)),
    truthCpuS: Number(truthCpuS.toFixed(1)), truthUsPerRecord: Number(((truthCpuS * 1e6) / Math.max(1, records)).toFixed(1)), peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
  };
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(child(process.argv[3] ?? 'small')));
} else {
  const scales = (process.env.BENCH_SCALES ?? 'tiny,small,medium,large').split(',');
  const rows: Result[] = [];
  for (const scale of scales) {
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', scale], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`scale ${scale} failed: ${r.stderr}`);
    rows.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as Result);
  }
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  console.log('| scale | history records | build ms | RSS after build MB | query us (30-day window, limit 100) | truth walk s (wall / cpu) | cpu us/record | peak RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.scale} | ${r.records.toLocaleString('en-US')} | ${r.buildMs} | ${r.rssAfterBuildMb} | ${r.queryUs} | ${r.truthS} / ${r.truthCpuS} | ${r.truthUsPerRecord} | ${r.peakRssMb} |`);
  }
}
