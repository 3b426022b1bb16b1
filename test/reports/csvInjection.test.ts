import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/api/endpoints.js';
import { exitCodes } from '../../src/errors.js';
import { utcYear } from '../../src/normalize/calendarDate.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { control, standardKeys, startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { call } from '../support/signedClient.js';
import { runCli } from '../support/runCli.js';
import { writeSandboxConfig } from '../support/sandboxConfig.js';

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let outRoot: string;

// Withdrawal addresses and client ids an exchange (or whoever can write them there) controls.
const hostile = [
  { address: '=HYPERLINK("http://x","y")', clientOid: '+oid-plus' },
  { address: "+1+cmd|' /C calc'!A0", clientOid: '@oid-at' },
  { address: "@SUM(1+1)*cmd|' /C calc'!A0", clientOid: '-oid-minus' },
  { address: "-2+3+cmd|' /C calc'!A0", clientOid: '=oid-equals' },
  { address: '\t=1+2', clientOid: 'oid-tab' },
];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-csv-injection-'));
});
afterAll(async () => {
  await sandbox?.close();
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

const dangerous = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

describe('CSV injection: exchange-controlled text never reaches a spreadsheet as a formula', () => {
  it('neutralises formula-like cells in every report format, keeps numbers, and counts them in the manifest', async () => {
    const { main } = standardKeys(sandbox);
    // The withdrawals are dated by the sandbox's clock, the real one: before the first is made, and
    // after the sync, may fall in two years when a run crosses New Year (UTC).
    const firstYear = utcYear(sandbox.world.now());
    for (const h of hostile) {
      const w = await call(sandbox.baseUrl, main, '/api/v2/spot/wallet/withdrawal', {
        body: { coin: 'USDT', transferType: 'on_chain', chain: 'TRC20', address: h.address, size: '25', clientOid: h.clientOid },
      });
      expect(w.json?.code, w.text).toBe('00000');
      expect(await control(sandbox, 'settle', { uid: main.uid, resource: 'withdrawals', id: w.json!.data.orderId })).toEqual({ settled: true });
    }
    const { file, env } = writeSandboxConfig(sandbox, { safetyLagSeconds: 0 }, { rateLimit: false });
    const cliEnv = { ...env, DATABASE_URL: fresh.url };
    const synced = await runCli(['sync', '--config', file, '--streams', 'withdrawals,deposits', '--since', String(sandbox.world.now() - 30 * DAY_MS)], cliEnv);
    expect(synced.code, synced.stderr.slice(-2000)).toBe(exitCodes.ok);

    // The year of the withdrawals; across New Year, the two years they may fall in (a year taken
    // after the sync alone would miss those made on 31 December).
    const lastYear = utcYear(sandbox.world.now());
    const period = firstYear === lastYear ? ['--year', String(lastYear)] : ['--from', `${firstYear}-01-01`, '--to', `${lastYear + 1}-01-01`];
    const cells: Record<string, string[]> = {};
    for (const format of ['native', 'koinly', 'cointracking', 'cointracker']) {
      const dir = path.join(outRoot, format);
      const r = await runCli(['report', ...period, '--format', format, '--out', dir], cliEnv);
      expect(r.code, r.stderr).toBe(exitCodes.ok);
      const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { files: { file: string; neutralisedCells: number }[] };
      for (const name of (await readdir(dir)).filter((f) => f.endsWith('.csv'))) {
        const rows = parse(await readFile(path.join(dir, name), 'utf8')) as string[][];
        const all = rows.flat();
        cells[`${format}/${name}`] = all;
        // No cell a spreadsheet would evaluate, except plain numbers.
        expect(all.filter((c) => dangerous.test(c) && !plainNumber.test(c)), `${format}/${name}`).toEqual([]);
        // The manifest counts exactly the cells that were neutralised.
        const quoted = all.filter((c) => c.startsWith("'") && dangerous.test(c.slice(1))).length;
        expect(manifest.files.find((f) => f.file === name)?.neutralisedCells, `${format}/${name}`).toBe(quoted);
      }
    }

    const dw = parse(await readFile(path.join(outRoot, 'native', 'deposits-withdrawals.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    for (const h of hostile) {
      const row = dw.find((r) => r.to_address === `'${h.address}`);
      expect(row, `withdrawal to ${JSON.stringify(h.address)} written as text`).toBeDefined();
      expect(row!.size).toBe('25');
    }
    const ledger = parse(await readFile(path.join(outRoot, 'native', 'ledger.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    const legs = ledger.filter((r) => r.source === 'withdrawals' && hostile.some((h) => r.counterparty === `'${h.address}`));
    expect(legs.filter((r) => r.leg === 'amount').map((r) => r.amount)).toEqual(hostile.map(() => '-25'));
    // Negative amounts stay numbers everywhere (they start with "-" but are not formulas).
    expect(Object.values(cells).flat().filter((c) => /^-\d/.test(c)).length).toBeGreaterThan(0);
    expect(Object.values(cells).flat().some((c) => /^'-\d/.test(c) && plainNumber.test(c.slice(1)))).toBe(false);
  }, 120_000);
});
