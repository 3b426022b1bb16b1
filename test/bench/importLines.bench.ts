// The Node side of `tradeledger import transactions` alone (issue 24 item 5): a generated
// Koinly universal CSV read, split, checked, keyed and turned into COPY text as the importer
// does, without a database. Prints CPU ms per pass and us per line; compare old and new code
// on the same file.
//   npx tsx test/bench/importLines.bench.ts FILE.csv [passes]
import { fileSource } from '../../src/imports/fileSource.js';
import { fileText } from '../../src/imports/fileText.js';
import { csvBatches } from '../../src/imports/csvRows.js';
import { koinlyLineReader } from '../../src/imports/koinlyTransactions.js';
import { lineKey } from '../../src/imports/lineKey.js';
import { copyRowText } from '../../src/imports/importTransactions.js';

const file = process.argv[2];
if (!file) throw new Error('usage: importLines.bench.ts FILE.csv [passes]');
const passes = Number(process.argv[3] ?? 5);
const now = new Date();
const sha = 'b'.repeat(64);
for (let p = 0; p < passes; p++) {
  const cpu0 = process.cpuUsage();
  let n = 0;
  let chars = 0;
  let read: ReturnType<typeof koinlyLineReader> | undefined;
  const src = await fileSource(file);
  for await (const rows of csvBatches(src.name, fileText(src))) for (const row of rows) {
    if (!read) { read = koinlyLineReader(src.name, row.fields, now); continue; }
    const t = read(row);
    const text = copyRowText(sha, 'bench', t, lineKey(t));
    chars += text.length;
    n++;
  }
  const cpu = process.cpuUsage(cpu0);
  const ms = (cpu.user + cpu.system) / 1000;
  console.log(`pass ${p + 1}: ${n} lines, ${chars} chars of COPY text, ${ms.toFixed(0)} CPU ms, ${(ms * 1000 / n).toFixed(2)} us/line`);
}
