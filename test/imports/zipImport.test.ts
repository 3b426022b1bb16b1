import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import yazl from 'yazl';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { memoryFile } from '../support/memoryFile.js';
import { runCli } from '../support/runCli.js';
import { unzippedSource } from '../../src/imports/zipMember.js';
import { TradeledgerError } from '../../src/errors.js';

// The ECB publishes its euro reference rates since 1999 only as a zip: "Time series ... CSV
// (.zip)" on https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html
// (eurofxref-hist.zip, holding eurofxref-hist.csv). `import fx` of the zip as downloaded said
// "line 1: a NUL character (byte 0x00) ... Save the file as UTF-8 text". The archives here are
// made by yazl, a ZIP writer that is not our reader.
const ecb = 'Date,USD,GBP,\n2025-03-04,1.0625,0.83,\n2025-03-03,1.05,0.825,\n2025-02-28,1.04,0.82,\n';

/** A ZIP archive of `files` made by yazl (deflated unless `store`). */
async function zipOf(files: Record<string, string>, store = false): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(text, 'utf8'), name, { compress: !store });
  }
  zip.end();
  const parts: Buffer[] = [];
  for await (const chunk of zip.outputStream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

async function textOf(name: string, bytes: Buffer, chunkSize?: number): Promise<{ name: string; text: string }> {
  const src = await unzippedSource(memoryFile(name, bytes, chunkSize));
  const parts: Buffer[] = [];
  for await (const c of src.chunks()) parts.push(Buffer.from(c));
  return { name: src.name, text: Buffer.concat(parts).toString('utf8') };
}

async function refusal(name: string, bytes: Buffer): Promise<TradeledgerError> {
  const err = await unzippedSource(memoryFile(name, bytes)).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TradeledgerError);
  return err as TradeledgerError;
}

describe('unzippedSource', () => {
  it('gives the one CSV of a zip, deflated or stored, read in any chunks, named zip/member', async () => {
    expect(await textOf('eurofxref-hist.zip', await zipOf({ 'eurofxref-hist.csv': ecb }), 7)).toEqual({ name: 'eurofxref-hist.zip/eurofxref-hist.csv', text: ecb });
    expect(await textOf('rates.zip', await zipOf({ 'eurofxref-hist.csv': ecb }, true))).toEqual({ name: 'rates.zip/eurofxref-hist.csv', text: ecb });
    // A folder and the resource forks macOS adds beside a file are not the archive's files.
    expect((await textOf('mac.zip', await zipOf({ 'x/': '', 'x/eurofxref-hist.csv': ecb, '__MACOSX/x/._eurofxref-hist.csv': '\0\u0005' }))).text).toBe(ecb);
  });

  it('leaves a file that is not a zip as it is (the same source, read again from its start)', async () => {
    const src = memoryFile('eurofxref-hist.csv', ecb, 5);
    expect(await unzippedSource(src)).toBe(src);
    expect(await unzippedSource(memoryFile('empty.csv', ''))).toBeDefined();
  });

  it('refuses a zip without a CSV, or with two, naming what it holds', async () => {
    const none = await refusal('rates.zip', await zipOf({ 'readme.txt': 'hello' }));
    expect(none.code).toBe('IMPORT_ZIP_NO_CSV');
    expect(none.message).toBe('rates.zip is a ZIP archive holding no CSV file (readme.txt); nothing was imported');
    const two = await refusal('both.zip', await zipOf({ 'a.csv': ecb, 'b.csv': ecb }));
    expect(two.message).toBe('both.zip is a ZIP archive holding 2 CSV files (a.csv, b.csv); nothing was imported');
    expect(two.hint).toMatch(/Unzip it and import each CSV file by itself/);
  });

  it('refuses a damaged zip: a changed byte fails the CRC-32, a cut file has no directory', async () => {
    const good = await zipOf({ 'eurofxref-hist.csv': ecb }, true);
    const changed = Buffer.from(good);
    const at = changed.indexOf('1.0625');
    changed[at] = '2'.charCodeAt(0);
    const crc = await refusal('eurofxref-hist.zip', changed);
    expect([crc.code, crc.message]).toEqual(['IMPORT_ZIP_UNREADABLE', 'eurofxref-hist.zip is a damaged ZIP archive (eurofxref-hist.csv fails its CRC-32 check); nothing was imported']);
    const cut = await refusal('eurofxref-hist.zip', good.subarray(0, good.length - 30));
    expect(cut.message).toMatch(/^eurofxref-hist\.zip is a damaged ZIP archive \(no end of central directory\)/);
    expect(cut.hint).toMatch(/Download it again/);
  });
});

describe('tradeledger import fx and import transactions of a zip', () => {
  let fresh: FreshDatabase;
  let dir: string;
  beforeAll(async () => {
    fresh = await freshDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'tl-zip-'));
  });
  afterAll(async () => {
    await fresh?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('imports the ECB zip as downloaded; the CSV unzipped is then the same file again', async () => {
    const zipPath = path.join(dir, 'eurofxref-hist.zip');
    await writeFile(zipPath, await zipOf({ 'eurofxref-hist.csv': ecb }));
    const r = await runCli(['import', 'fx', zipPath], { DATABASE_URL: fresh.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^eurofxref-hist\.zip\/eurofxref-hist\.csv: 6 rates of 2 currencies, 2025-02-28 to 2025-03-04: 6 new/);
    const csvPath = path.join(dir, 'eurofxref-hist.csv');
    await writeFile(csvPath, ecb);
    const again = await runCli(['import', 'fx', csvPath], { DATABASE_URL: fresh.url });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^eurofxref-hist\.csv \(imported before on [^)]+\): 6 rates .*: 0 new, 0 changed to this file's rate, 6 already so/);
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM imported_files WHERE kind = 'fx'`.execute(fresh.db);
    expect(rows[0]!.n).toBe('1');
  });

  it('refuses a zip of two CSVs with exit 2 and imports nothing', async () => {
    const zipPath = path.join(dir, 'two.zip');
    await writeFile(zipPath, await zipOf({ 'a.csv': ecb, 'b.csv': ecb }));
    const before = await sql<{ n: string }>`SELECT count(*)::text AS n FROM imported_files`.execute(fresh.db);
    const r = await runCli(['import', 'transactions', zipPath, '--wallet', 'elsewhere'], { DATABASE_URL: fresh.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('two.zip is a ZIP archive holding 2 CSV files (a.csv, b.csv); nothing was imported');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const after = await sql<{ n: string }>`SELECT count(*)::text AS n FROM imported_files`.execute(fresh.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('imports a Koinly CSV from a zip under the wallet', async () => {
    const koinly = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash\n'
      + '2025-03-03 09:00 UTC,2500,USDT,1,ETH,,,,,,bought elsewhere,0xabc\n';
    const zipPath = path.join(dir, 'koinly.zip');
    await writeFile(zipPath, await zipOf({ 'koinly.csv': koinly }));
    const r = await runCli(['import', 'transactions', zipPath, '--wallet', 'elsewhere'], { DATABASE_URL: fresh.url });
    expect(r.code, r.stderr).toBe(0);
    const { rows } = await sql<{ description: string; file_name: string }>`
      SELECT t.description, f.file_name FROM imported_transactions t JOIN imported_files f ON f.sha256 = t.file_sha256`.execute(fresh.db);
    expect(rows).toEqual([{ description: 'bought elsewhere', file_name: 'koinly.zip/koinly.csv' }]);
  });
});
