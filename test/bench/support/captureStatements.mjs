// A node --import preload for the sync process: appends every batch upsert the sync sends
// (the statements that read `jsonb_array_elements`, and the price candles' unnest) to an NDJSON file, {text, values} a line, for
// upsertReplay.bench.ts to replay on one connection. Benchmark use only: it writes the records'
// raw JSON to disk. Usage, with the file named in the query string:
//   BENCH_NODE_ARGS='--import=file:///abs/test/bench/support/captureStatements.mjs?out=/tmp/batches.ndjson'
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = new URL(import.meta.url).searchParams.get('out');
if (!out) throw new Error('captureStatements.mjs: name the output file, e.g. captureStatements.mjs?out=/tmp/batches.ndjson');
// The pg module the sync itself loads: resolved from its entry script (process.argv[1], the
// checkout's bin/), so a copy of this file can capture another checkout's sync too.
const pg = createRequire(process.argv[1] ?? import.meta.url)('pg');
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function capture(config, values, callback) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string' && (text.includes('jsonb_array_elements') || text.includes('INSERT INTO price_candles'))) {
    appendFileSync(out, `${JSON.stringify({ text, values: Array.isArray(values) ? values : config.values })}\n`);
  }
  return query.call(this, config, values, callback);
};
