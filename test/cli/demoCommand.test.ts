import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import type { CliResult } from '../support/runCli.js';
import { reportFormats } from '../../src/reports/reportFormats.js';
import { utcDate, utcYear } from '../../src/normalize/calendarDate.js';

// The README's main command: sandbox -> sync -> reports, on whatever DATABASE_URL says.
describe('tradeledger demo', () => {
  let fresh: FreshDatabase;
  let cwd: string;
  let result: CliResult & { pid: number };
  // The year the demo wrote its reports for, and the real clock's span around the demo.
  let year: string;
  let started: number;
  let ended: number;

  beforeAll(async () => {
    fresh = await freshDatabase();
    cwd = await mkdtemp(path.join(tmpdir(), 'tl-demo-'));
    started = Date.now();
    result = await runInDir(['demo', '--scale', 'tiny'], { DATABASE_URL: fresh.url }, cwd);
    ended = Date.now();
    year = /^Reports for (\d{4}) \(UTC\)/m.exec(result.stdout)?.[1] ?? '(no "Reports for" line)';
  }, 240_000);

  afterAll(async () => {
    await fresh?.drop();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  // The demo takes its year from the clock while it runs; a run across New Year (UTC) may write
  // the year it started in or the next one, never any other (a year read after the demo, as
  // here once, would not be the demo's own).
  it('writes the reports of the year it ran in', () => {
    expect([String(utcYear(started)), String(utcYear(ended))], result.stdout).toContain(year);
  });

  it('syncs every account and exits 0', async () => {
    expect(result.stderr).not.toMatch(/unexpected error/);
    expect(result.code).toBe(0);
    const runs = await fresh.db.selectFrom('sync_runs').select(['status']).execute();
    expect(runs.map((r) => r.status)).toEqual(['ok']);
    const fills = await fresh.db.selectFrom('spot_fills').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(fills.n)).toBeGreaterThan(0);
  });

  // Each stage prints its line on stdout as it is reached, in this order, and the sandbox runs as
  // its own process (the live display's event loop never serves the exchange) and is gone after.
  it('prints each stage in order, the sandbox from a process of its own that ends with the demo', () => {
    const reportsDir = path.join(cwd, 'tradeledger-reports', year);
    const stages: [string, RegExp][] = [
      ['sandbox', /^sandbox: serving http:\/\/127\.0\.0\.1:\d+ from its own process \(pid (\d+); seed 1, scale tiny\)$/],
      ['database', /^database: postgres(ql)?:\/\/\S+, migrated$/],
      ['sync', /^sync run \d+: complete$/],
      ['valuation', /^ledger valued in USD: \d+ rows/],
      ['reports', new RegExp(`^Reports for ${year} \\(UTC\\)`)],
      ...reportFormats.map((f): [string, RegExp] => [`report ${f}`, new RegExp(`^ {2}${escape(path.join(reportsDir, f))} {2}\\(\\d+ files?, \\d+ rows\\)$`)]),
      ['gains', /^Capital gains of this tax year so far/],
      ['gains uk', new RegExp(`^ {2}${escape(path.join(reportsDir, 'gains-uk'))}$`)],
      ['gains us', new RegExp(`^ {2}${escape(path.join(reportsDir, 'gains-us'))}$`)],
      ['next', /^The data is in \S+\. Next:$/],
    ];
    // The stages missing, or out of order (each on its own line, strictly in the order above).
    const misplaced = (stdout: string) => {
      const lines = stdout.split('\n');
      const at = stages.map(([name, re]) => ({ name, line: lines.findIndex((l) => re.test(l)) }));
      const missing = at.filter((s) => s.line < 0).map((s) => `missing ${s.name}`);
      return missing.length > 0 ? missing : at.filter((s, i) => i > 0 && s.line <= at[i - 1]!.line).map((s) => `${s.name} before ${at[at.indexOf(s) - 1]!.name}`);
    };
    expect(misplaced(result.stdout), result.stdout).toEqual([]);
    // A planted defect: the reports block printed after the gains, as one block at the end would.
    const lines = result.stdout.split('\n');
    const from = lines.findIndex((l) => l.startsWith('Reports for '));
    const planted = [...lines.slice(0, from), ...lines.slice(from + 1 + reportFormats.length, lines.findIndex((l) => l.startsWith('Demo-trading') || l.startsWith('The data is in'))),
      ...lines.slice(from, from + 1 + reportFormats.length), ...lines.slice(lines.findIndex((l) => l.startsWith('Demo-trading') || l.startsWith('The data is in')))];
    expect(misplaced(planted.join('\n'))).toEqual(['gains before report ctc']);
    const sandboxPid = Number(lines.map((l) => stages[0]![1].exec(l)).find((m) => m)![1]);
    expect(sandboxPid).not.toBe(result.pid);
    expect(isRunning(sandboxPid), 'the sandbox process outlived the demo').toBe(false);
  });

  // Every order stream of every account has the same gap (orders are served for 90 days only):
  // one line per span of dates, not one per account and stream (the demo printed eleven).
  it('prints each span of history gaps once', () => {
    const spans = result.stdout.split('\n').filter((l) => l.startsWith('history gap')).map((l) => /\d{4}-\d{2}-\d{2} \.\. \d{4}-\d{2}-\d{2}/.exec(l)?.[0] ?? l);
    expect(spans.length, result.stdout).toBeGreaterThan(0);
    expect(spans, result.stdout).toEqual([...new Set(spans)]);
  });

  it('values its whole ledger in USD and says by which rules', async () => {
    const line = /ledger valued in USD: (\d+) rows \(([^)]*)\).*; (\d+) unpriced/.exec(result.stdout);
    expect(line, result.stdout).not.toBeNull();
    const ledger = await fresh.db.selectFrom('ledger').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(line![1])).toBe(Number(ledger.n));
    expect(line![2]).toContain('candle');
    expect(line![3]).toBe('0');
  });

  it('writes every report format with a manifest whose hashes match the files', async () => {
    const from = `${year}-01-01T00:00:00Z`;
    const to = `${Number(year) + 1}-01-01T00:00:00Z`;
    const counts = await sql<{ taxable: number; ledger: number }>`
      SELECT (SELECT count(*)::int FROM tax_transactions(${from}::timestamptz, ${to}::timestamptz, '') WHERE NOT own_account) AS taxable,
             (SELECT count(*)::int FROM ledger WHERE ts >= ${from}::timestamptz AND ts < ${to}::timestamptz) AS ledger`.execute(fresh.db);
    const { taxable, ledger: ledgerRows } = counts.rows[0]!;
    for (const format of ['native', 'koinly', 'cointracking', 'cointracker', 'ctc']) {
      const dir = path.join(cwd, 'tradeledger-reports', year, format);
      const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { files: { file: string; sha256: string; rows: number }[] };
      const csvs = (await readdir(dir)).filter((f) => f.endsWith('.csv')).sort();
      expect(manifest.files.map((f) => f.file).sort()).toEqual(csvs);
      for (const f of manifest.files) {
        const bytes = await readFile(path.join(dir, f.file));
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      }
      // The tool files hold the year's transactions, which the tiny sandbox may not have yet: its
      // newest records are weeks old, so from 1 January to late February the demo's year has none.
      if (format !== 'native' && taxable > 0) expect(manifest.files[0]?.rows).toBeGreaterThan(0);
      // The ledger, every row of the year, whatever the date (demo-trading rows too, marked).
      if (format === 'native') expect(manifest.files.find((f) => f.file === 'ledger.csv')?.rows).toBe(ledgerRows);
    }
    expect(result.stdout).toContain(`Reports for ${year}`);
    expect(result.stdout).toContain('npx tradeledger users add me --role admin && npx tradeledger serve');
  });

  // The README's Quick start and the demo's own hints, each line run as printed by bash, in the
  // demo's folder, right after it. `npx tradeledger` in a clone runs the package's own bin; a
  // shim on PATH does exactly that here (the temp folder is not a clone). The portal's port
  // comes from TRADELEDGER_PORTAL_PORT so that 8080 may be busy on a shared machine.
  it('then runs every command of the README\'s Quick start and of its own "Next:" hints as printed', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const quick = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme);
    expect(quick, 'README has a Quick start with a sh block').not.toBeNull();
    const readmeLines = quick![1]!.split('\n').filter((l) => l.trim() !== '');
    const next = result.stdout.split('\n');
    const hints = next.slice(next.findIndex((l) => l.endsWith('Next:')) + 1)
      .filter((l) => /^  (npx|psql) /.test(l)).map((l) => l.trim());
    expect(readmeLines.length).toBeGreaterThanOrEqual(3);
    expect(hints.length).toBeGreaterThanOrEqual(4);
    const shim = await mkdtemp(path.join(tmpdir(), 'tl-npx-'));
    await writeFile(path.join(shim, 'npx'), `#!/bin/sh\n[ "$1" = tradeledger ] || exit 127\nshift\nexec "${process.execPath}" "${bin}" "$@"\n`, { mode: 0o755 });
    const env = { PATH: `${shim}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp', DATABASE_URL: fresh.url };
    try {
      for (const line of [...readmeLines, ...hints]) {
        const serves = / serve\b/.test(line);
        const port = serves ? await freePort() : 0;
        const run = runShell(line, { ...env, TRADELEDGER_PORTAL_PORT: String(port) }, cwd, serves ? 'demo password 1\n' : '');
        let status = 0;
        if (serves) {
          // The portal runs until stopped: it must answer its sign-in page, then it is stopped.
          try {
            await expect.poll(async () => (status = await fetch(`http://127.0.0.1:${port}/login`).then((r) => r.status, () => 0)), { timeout: 60_000 }).toBe(200);
          } catch { /* reported below, with what the portal printed */ } finally {
            run.stop();
          }
        }
        const r = await run.done;
        if (serves) expect(status, `${line}\n${r.stdout}\n${r.stderr}`).toBe(200);
        expect(r.stderr, line).not.toMatch(/unexpected error|command not found|\n\s+at /);
        if (!serves) expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
      }
    } finally {
      await rm(shim, { recursive: true, force: true });
    }
  }, 240_000);

  it('writes the current tax year\'s gains under the UK and US rules', async () => {
    // The tax years current at the demo's moment in its report year: the UK one is either side of
    // 6 April only when the demo ran across that day's start.
    const inYear = [Math.max(started, Date.UTC(Number(year), 0, 1)), Math.min(ended, Date.UTC(Number(year) + 1, 0, 1) - 1)];
    const ukYears = inYear.map((ms) => (utcDate(ms).slice(5) >= '04-06' ? Number(year) : Number(year) - 1));
    // Beside the year's report folders: gains-uk (in GBP once ECB rates are there, else in USD;
    // the demo says which) and gains-us.
    for (const rules of ['uk', 'us']) {
      const dir = path.join(cwd, 'tradeledger-reports', year, `gains-${rules}`);
      const files = await readdir(dir);
      expect(files).toEqual(expect.arrayContaining(['gains.csv', 'income.csv', 'summary.json', 'summary.txt', 'manifest.json']));
      const summary = JSON.parse(await readFile(path.join(dir, 'summary.json'), 'utf8')) as { period: { from: string } };
      if (rules === 'uk') expect(ukYears.map((y) => `${y}-04-06`)).toContain(summary.period.from.slice(0, 10));
      else expect(summary.period.from.slice(0, 10)).toBe(`${year}-01-01`);
    }
    expect(result.stdout).toContain('Capital gains of this tax year so far, not for filing');
  });

  it('records which sandbox world filled the database', async () => {
    const { rows } = await sql<{ w: unknown }>`SELECT options->'sandbox' AS w FROM sync_runs`.execute(fresh.db);
    expect(rows).toEqual([{ w: { seed: '1', scale: 'tiny' } }]);
  });

  // The same seed gives the same account UIDs at every scale: a second demo of another scale into
  // this database would put a second world's records on the first one's accounts.
  it('refuses a demo of another sandbox world into the same database, says how to go on, and syncs nothing', async () => {
    const before = await fresh.db.selectFrom('sync_runs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const folders = await readdir(path.join(cwd, 'tradeledger-reports'));
    const r = await runInDir(['demo', '--scale', 'small'], { DATABASE_URL: fresh.url }, cwd, 120_000);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds the demo of sandbox seed 1, scale tiny; this demo is seed 1, scale small');
    expect(r.stderr).toContain('nothing was synced');
    expect(r.stderr).toContain('npx tradeledger demo --seed 1 --scale tiny');
    expect(r.stderr).toContain('TRADELEDGER_DATA_DIR=.tradeledger/pg-small');
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    const after = await fresh.db.selectFrom('sync_runs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    expect(await readdir(path.join(cwd, 'tradeledger-reports'))).toEqual(folders);
  }, 150_000);
});

// DATABASE_URL may name a database with real books in it: the demo's made-up accounts must never
// be synced in beside them (every report of all accounts, and its tax files, would carry them).
describe('tradeledger demo on a database holding other exchange accounts', () => {
  it('refuses, names the accounts, exits 2 and writes nothing', async () => {
    const fresh = await freshDatabase();
    const cwd = await mkdtemp(path.join(tmpdir(), 'tl-demo-foreign-'));
    try {
      await sql`INSERT INTO accounts (uid, name, kind) VALUES ('8000000001', 'my-main', 'main'), ('8000000002', 'my-sub', 'sub')`.execute(fresh.db);
      const r = await runInDir(['demo', '--scale', 'tiny'], { DATABASE_URL: fresh.url }, cwd, 120_000);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("holds 2 exchange accounts this sandbox does not have (8000000001 'my-main', 8000000002 'my-sub')");
      expect(r.stderr).toContain('unset DATABASE_URL');
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
      const accounts = await sql<{ uid: string }>`SELECT uid FROM accounts ORDER BY uid`.execute(fresh.db);
      expect(accounts.rows.map((a) => a.uid)).toEqual(['8000000001', '8000000002']);
      const runs = await sql<{ n: string }>`SELECT count(*) AS n FROM sync_runs`.execute(fresh.db);
      expect(runs.rows[0]!.n).toBe('0');
      await expect(readdir(path.join(cwd, 'tradeledger-reports'))).rejects.toThrow(/ENOENT/);
    } finally {
      await fresh.drop();
      await rm(cwd, { recursive: true, force: true });
    }
  }, 150_000);
});

const bin = fileURLToPath(new URL('../../bin/tradeledger.js', import.meta.url));

// A database that cannot start must end the demo with its error, not leave it hanging: the
// sandbox it started first keeps the event loop alive unless it is closed on that path too.
describe('tradeledger demo when the embedded PostgreSQL cannot start', () => {
  it('says the port is taken and how to pick another, and exits 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const cwd = await mkdtemp(path.join(tmpdir(), 'tl-demo-port-'));
    try {
      const r = await runInDir(['demo', '--scale', 'tiny'], { TRADELEDGER_PG_PORT: String(port), TRADELEDGER_DATA_DIR: path.join(cwd, 'pg') }, cwd, 90_000);
      expect(r.signal, 'the demo did not exit by itself within 90 s').toBeNull();
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('TRADELEDGER_PG_PORT');
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    } finally {
      blocker.close();
      await rm(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// killAfterMs: a run still going then is killed (its result then has a signal).
function runInDir(args: string[], env: Record<string, string>, cwd: string, killAfterMs?: number): Promise<CliResult & { pid: number }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (killAfterMs !== undefined) {
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', () => clearTimeout(timer));
  }
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => { stderr += String(d); });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, pid: child.pid! })));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// One line through bash, as a user types it; stop() ends it and its children (the portal).
function runShell(line: string, env: Record<string, string>, cwd: string, stdin: string): { done: Promise<CliResult>; stop(): void } {
  const child = spawn('bash', ['-c', line], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stdin.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => { stderr += String(d); });
  return {
    done: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))),
    stop: () => { try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ } },
  };
}
