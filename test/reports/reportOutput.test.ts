import { spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runCli, startCli } from '../support/runCli.js';
import { fixtureSql } from './ledgerFixture.js';
import { reportFiles } from '../../src/reports/reportFormats.js';
import { claimFolder, claimReportOutput, commitLockName, fileWriteError, outputFolderHint, reportOutput } from '../../src/reports/reportOutput.js';
import { failureOf } from '../support/failure.js';

let fresh: FreshDatabase;
let broken: FreshDatabase;
let root: string;
// The native format's files and its manifest, as a sorted directory listing shows them.
const files = [...reportFiles('native').map((f) => f.file), 'manifest.json'].sort();

beforeAll(async () => {
  [fresh, broken] = await Promise.all([freshDatabase(), freshDatabase()]);
  await sql.raw(fixtureSql).execute(fresh.db);
  await sql.raw(fixtureSql).execute(broken.db);
  // The last native file's view is gone: the run fails after writing every other file.
  await sql`DROP VIEW data_quality`.execute(broken.db);
  root = await mkdtemp(path.join(tmpdir(), 'tl-report-out-'));
});
afterAll(async () => {
  await fresh?.drop();
  await broken?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

const report = (dir: string, ...more: string[]) => runCli(['report', '--year', '2025', '--out', dir, ...more], { DATABASE_URL: fresh.url });
const snapshot = async (dir: string) => Object.fromEntries(await Promise.all((await readdir(dir)).sort().map(async (f) => [f, await readFile(path.join(dir, f), 'utf8')])));

describe('report --out never harms what is already there', () => {
  it('refuses to overwrite without --force, replaces with it, and leaves no temporary files', async () => {
    const dir = path.join(root, 'year');
    const first = await report(dir);
    expect(first.code, first.stderr).toBe(exitCodes.ok);
    expect((await readdir(dir)).sort()).toEqual(files);
    await writeFile(path.join(dir, 'ledger.csv'), 'the accountant\'s annotated copy\n');
    const before = await snapshot(dir);

    const again = await report(dir);
    expect(again.code).toBe(exitCodes.configOrAuth);
    expect(again.stderr).toMatch(/^tradeledger: .*already holds .*ledger\.csv.*manifest\.json/m);
    expect(again.stderr).toMatch(/fix: .*--force/);
    expect(await snapshot(dir), 'nothing changed, nothing added').toEqual(before);

    const forced = await report(dir, '--force');
    expect(forced.code, forced.stderr).toBe(exitCodes.ok);
    expect((await readdir(dir)).sort(), 'no temporary file is left').toEqual(files);
    expect((await readFile(path.join(dir, 'ledger.csv'), 'utf8')).startsWith('time_utc,')).toBe(true);
  });

  it('a report whose ledger has no row says why: nothing in the period asked for, or nothing synced at all', async () => {
    const full = await report(path.join(root, 'not-empty'));
    expect(full.code, full.stderr).toBe(exitCodes.ok);
    expect(full.stderr).not.toContain('is empty');
    const period = await runCli(['report', '--year', '2001', '--out', path.join(root, 'y2001')], { DATABASE_URL: fresh.url });
    expect(period.code, period.stderr).toBe(exitCodes.ok);
    expect(period.stderr).toContain('note: ledger.csv is empty: the database holds no record from 2001-01-01 to 2002-01-01 (exclusive; UTC) for what was asked; check --year/--from/--to, --tz and --account');
    const empty = await freshDatabase();
    try {
      const none = await runCli(['report', '--year', '2025', '--out', path.join(root, 'nothing')], { DATABASE_URL: empty.url });
      expect(none.code, none.stderr).toBe(exitCodes.ok);
      expect(none.stderr).toContain('note: ledger.csv is empty: no sync or import has run against this database yet: `tradeledger sync`');
      // reconcile on the same empty database: the same kind of word
      const reconcile = await runCli(['reconcile'], { DATABASE_URL: empty.url });
      expect(reconcile.code, reconcile.stderr).toBe(exitCodes.ok);
      expect(reconcile.stdout).toContain('0 balance(s)');
      expect(reconcile.stderr).toContain('tradeledger: note: nothing to reconcile: no balance has been read yet; `tradeledger sync` reads');
    } finally {
      await empty.drop();
    }
  });

  // `report --year 2030` (typed for 2020) wrote a folder of empty files and a manifest for a
  // year nothing can have happened in. It is refused, naming this year, and no folder is made.
  it('refuses a period that starts after today, exit 2, making no folder', async () => {
    const next = new Date().getUTCFullYear() + 2;
    const out = path.join(root, 'future');
    const r = await runCli(['report', '--year', String(next), '--out', out], { DATABASE_URL: fresh.url });
    expect(r.code, r.stderr).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toMatch(new RegExp(`^tradeledger: the period from ${next}-01-01 starts after today \\(\\d{4}-\\d{2}-\\d{2} in UTC\\): nothing can have happened in it yet$`, 'm'));
    expect(r.stderr).toMatch(/fix: Pick a period that has started: the year \d{4} \(so far\) or \d{4}, say\./);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
    // A period that has started (this year so far) is written as before.
    const now = await runCli(['report', '--from', `${new Date().getUTCFullYear()}-01-01`, '--to', `${next}-01-01`, '--out', path.join(root, 'so-far')], { DATABASE_URL: fresh.url });
    expect(now.code, now.stderr).toBe(exitCodes.ok);
  });

  // `--to` is the first day NOT included (its help says so), but `--to 2025-12-31` for "2025"
  // wrote files without 31 December and without a word. Now the run says so and gives the date
  // to use; a month's or a UK tax year's true end (the 1st, 6 April) gets no such note.
  it('says when --to looks like the last day wanted: that day is left out, and the --to that includes it', async () => {
    const short = await runCli(['report', '--from', '2025-01-01', '--to', '2025-12-31', '--out', path.join(root, 'short')], { DATABASE_URL: fresh.url });
    expect(short.code, short.stderr).toBe(exitCodes.ok);
    expect(short.stdout).toContain('(2025-01-01T00:00:00Z up to 2025-12-31T00:00:00Z, not included; manifest.json)');
    expect(short.stderr).toContain('note: --to 2025-12-31 is the first day NOT included, so 2025-12-31 itself is left out; to include it, give --to 2026-01-01\n');
    const whole = await runCli(['report', '--from', '2025-01-01', '--to', '2026-01-01', '--out', path.join(root, 'whole')], { DATABASE_URL: fresh.url });
    expect(whole.code, whole.stderr).toBe(exitCodes.ok);
    expect(whole.stderr).not.toContain('NOT included');
    // The day the note speaks of is really missing from the short files (the fixture has rows at 2025-12-31 23:30Z).
    const lastDay = (csv: string) => csv.split('\n').filter((l) => l.startsWith('2025-12-31')).length;
    expect(lastDay(await readFile(path.join(root, 'short', 'ledger.csv'), 'utf8'))).toBe(0);
    expect(lastDay(await readFile(path.join(root, 'whole', 'ledger.csv'), 'utf8'))).toBeGreaterThan(0);
    const uk = await runCli(['report', '--from', '2025-04-06', '--to', '2026-04-05', '--tz', 'Europe/London', '--out', path.join(root, 'uk')], { DATABASE_URL: fresh.url });
    expect(uk.code, uk.stderr).toBe(exitCodes.ok);
    expect(uk.stderr).toContain('note: --to 2026-04-05 is the first day NOT included, so 2026-04-05 itself is left out; to include it, give --to 2026-04-06 (a UK tax year runs from 6 April to 5 April: --from 2025-04-06 --to 2026-04-06)\n');
    const year = await report(path.join(root, 'by-year'));
    expect(year.stderr).not.toContain('NOT included');
  });

  it('refuses a symlinked target, with or without --force, and never touches the file it points to', async () => {
    const dir = path.join(root, 'linked');
    await mkdir(dir);
    const outside = path.join(root, 'outside-precious.txt');
    await writeFile(outside, 'precious\n');
    await symlink(outside, path.join(dir, 'ledger.csv'));
    for (const flags of [[], ['--force']]) {
      const r = await report(dir, ...flags);
      expect(r.code).toBe(exitCodes.configOrAuth);
      expect(r.stderr).toContain(`tradeledger: ${path.join(dir, 'ledger.csv')} is a symbolic link`);
      expect(await readFile(outside, 'utf8')).toBe('precious\n');
      expect(await readdir(dir)).toEqual(['ledger.csv']);
      expect((await lstat(path.join(dir, 'ledger.csv'))).isSymbolicLink()).toBe(true);
    }
  });

  it('an account that does not exist is an error naming the accounts that do, and writes nothing', async () => {
    const good = path.join(root, 'year');
    const before = await snapshot(good);
    const r = await report(good, '--account', '12345', '--force');
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toContain('tradeledger: no account with UID "12345" and no imported wallet of that name in the database; nothing was written');
    expect(r.stderr).toContain('fix: Use one of: A (main), B (sub).');
    expect(await snapshot(good)).toEqual(before);
    const unused = path.join(root, 'never-made');
    expect((await report(unused, '--account', 'main')).stderr).toContain('fix: --account takes the UID: use --account A for "main".');
    await expect(readdir(unused)).rejects.toThrow(/ENOENT/);
  });

  it('a folder that cannot be made fails at once with a clear message', async () => {
    const { child, done } = startCli(['report', '--year', '2025', '--out', '/proc/nope'], { DATABASE_URL: fresh.url });
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const r = await done;
    clearTimeout(guard);
    expect(r.signal, 'the command ended by itself').toBeNull();
    expect(r.code).toBe(exitCodes.configOrAuth);
    expect(r.stderr).toBe('tradeledger: cannot create the output folder /proc/nope: no such file or folder (ENOENT)\n  fix: Pass --out with a folder you can write to.\n');
  });

  it('a run that fails part-way leaves the previous report exactly as it was (files appear only when complete)', async () => {
    const dir = path.join(root, 'year');
    const before = await snapshot(dir);
    const r = await runCli(['report', '--year', '2025', '--out', dir, '--force'], { DATABASE_URL: broken.url });
    expect(r.code).toBe(exitCodes.database);
    expect(r.stderr).toMatch(/^tradeledger: reports\/data-quality\.sql failed: relation "data_quality" does not exist/m);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('a run that fails into folders it made takes those folders away again', async () => {
    const dir = path.join(root, 'new', 'nested', 'year');
    const r = await runCli(['report', '--year', '2025', '--out', dir], { DATABASE_URL: broken.url });
    expect(r.code).toBe(exitCodes.database);
    // root existed before; new/nested/year did not, and nothing of them is left.
    expect(await readdir(root)).not.toContain('new');
  });

  // Two runs started together with the default folder both saw tradeledger-reports/2025/koinly
  // free, both wrote it, both said "wrote" there, and the later rename replaced the first's files.
  it('two runs started together into the default folder each get a folder of their own', async () => {
    const cwd = path.join(root, 'together');
    await mkdir(cwd);
    const run = () => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.resolve('bin/tradeledger.js'), 'report', '--year', '2025', '--format', 'koinly'],
        { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: fresh.url } });
      let stdout = ''; let stderr = '';
      child.stdout.on('data', (d) => { stdout += String(d); });
      child.stderr.on('data', (d) => { stderr += String(d); });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    const results = await Promise.all([run(), run(), run()]);
    const folders = results.map((r) => {
      expect(r.code, r.stderr).toBe(exitCodes.ok);
      return /^wrote (\S+) /m.exec(r.stdout)?.[1];
    });
    expect(new Set(folders).size, folders.join(' ')).toBe(3);
    expect((await readdir(path.join(cwd, 'tradeledger-reports'))).sort()).toEqual(['2025', '2025-2', '2025-3']);
    for (const f of folders) expect((await readdir(f!)).sort()).toEqual(['koinly.csv', 'manifest.json']);
  });

  it('the demo\'s folder of the year: claims started together each make their own, beside an existing one', async () => {
    const base = path.join(root, 'demo-claims', 'tradeledger-reports', '2026');
    await mkdir(base, { recursive: true }); // an earlier demo's
    const claimed = await Promise.all([claimFolder(base), claimFolder(base), claimFolder(base)]);
    // (The old check of a free name gave all three `2026-2`: none made it before the others looked.)
    expect([...claimed].sort()).toEqual([`${base}-2`, `${base}-3`, `${base}-4`]);
    for (const dir of claimed) expect((await stat(dir)).isDirectory()).toBe(true);
    const blocked = path.join(root, 'demo-claims', 'a-file');
    await writeFile(blocked, 'x');
    expect((await failureOf(() => claimFolder(path.join(blocked, '2026')))).code).toBe('REPORT_OUT_DIR');
  });

  it('the claim of a default folder and the final move never take what another run made', async () => {
    const base = path.join(root, 'claims', 'tradeledger-reports', '2025');
    const first = await claimReportOutput(base, ['koinly'], ['koinly.csv']);
    const second = await claimReportOutput(base, ['koinly'], ['koinly.csv']);
    expect([first.dir, second.dir]).toEqual([path.join(base, 'koinly'), path.join(`${base}-2`, 'koinly')]);
    // An explicit folder, checked empty, where another run's file appears before this one commits.
    const dir = path.join(root, 'raced');
    const out = await reportOutput(dir, ['a.csv', 'b.csv'], false);
    await writeFile(out.temporary('a.csv'), 'mine a\n', { flag: 'wx' });
    await writeFile(out.temporary('b.csv'), 'mine b\n', { flag: 'wx' });
    await writeFile(path.join(dir, 'b.csv'), 'theirs b\n');
    const err = await failureOf(() => out.commit());
    expect(err.code).toBe('REPORT_WOULD_OVERWRITE');
    expect(err.message).toBe(`${path.join(dir, 'b.csv')} appeared while this report was being written (another run writing the same folder?); a report never overwrites files unless told to, so none of this run's files were put there`);
    await out.discard();
    expect((await readdir(dir)).sort(), 'a.csv taken back, b.csv theirs, no temporary file').toEqual(['b.csv']);
    expect(await readFile(path.join(dir, 'b.csv'), 'utf8')).toBe('theirs b\n');
    // With --force the same race ends with this run's files, as asked.
    const forced = await reportOutput(dir, ['a.csv', 'b.csv'], true);
    await writeFile(forced.temporary('a.csv'), 'mine a\n', { flag: 'wx' });
    await writeFile(forced.temporary('b.csv'), 'mine b\n', { flag: 'wx' });
    await forced.commit();
    expect(await snapshot(dir)).toEqual({ 'a.csv': 'mine a\n', 'b.csv': 'mine b\n' });
    // A commit with nothing in the way puts every file in place and leaves no temporary one.
    const clean = await reportOutput(path.join(root, 'clean'), ['a.csv'], false);
    await writeFile(clean.temporary('a.csv'), 'x\n', { flag: 'wx' });
    await clean.commit();
    expect(await snapshot(path.join(root, 'clean'))).toEqual({ 'a.csv': 'x\n' });
  });

  // Two `--force` runs into one folder at once put their files in turn, file by file: the folder
  // ended with some files of each and a manifest that matched neither. The commit now holds the
  // folder's lock file, and waits for another run's.
  it('a commit waits for another run\'s commit into the same folder, and takes over a lock its dead owner left', async () => {
    const dir = path.join(root, 'locked');
    const lock = path.join(dir, commitLockName);
    const out = await reportOutput(dir, ['a.csv', 'manifest.json'], true);
    await writeFile(out.temporary('a.csv'), 'mine\n', { flag: 'wx' });
    await writeFile(out.temporary('manifest.json'), '{}\n', { flag: 'wx' });
    await writeFile(lock, `${process.pid}\n`); // another run, alive, is putting its files here
    let committed = false;
    const commit = out.commit().then(() => { committed = true; });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(committed, 'waited for the other run').toBe(false);
    expect(await readdir(dir)).not.toContain('a.csv');
    await rm(lock);
    await commit;
    expect(await snapshot(dir)).toEqual({ 'a.csv': 'mine\n', 'manifest.json': '{}\n' });
    // A lock whose process is gone (killed mid-commit) does not hold anyone up.
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'close');
    await writeFile(lock, `${dead.pid}\n`);
    const again = await reportOutput(dir, ['a.csv'], true);
    await writeFile(again.temporary('a.csv'), 'again\n', { flag: 'wx' });
    await again.commit();
    expect(await snapshot(dir)).toEqual({ 'a.csv': 'again\n', 'manifest.json': '{}\n' });
  });

  // Ctrl-C during a report ended the process at once (Node's default) and left
  // .ledger.csv.<pid>.tmp files, and the folders it had made, behind.
  it('Ctrl-C (SIGINT) mid-run takes the run\'s files back, leaves the folder as it was, and exits 130', async () => {
    const dir = path.join(root, 'interrupted');
    expect((await report(dir)).code).toBe(exitCodes.ok);
    const before = await snapshot(dir);
    const holder = new pg.Client({ connectionString: fresh.url });
    await holder.connect();
    try {
      // Every report query reads the ledger, which reads deposits: the run waits on this lock,
      // mid-way, until it is stopped.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE deposits IN ACCESS EXCLUSIVE MODE');
      const { child, done } = startCli(['report', '--year', '2025', '--out', dir, '--force'], { DATABASE_URL: fresh.url });
      // (pg_stat_clear_snapshot: inside a transaction the activity view is read once and kept)
      await expect.poll(async () => (await holder.query(`SELECT pg_stat_clear_snapshot(), (SELECT count(*)::int FROM pg_stat_activity
        WHERE application_name = 'tradeledger-report' AND wait_event_type = 'Lock') AS n`)).rows[0].n, { timeout: 60_000 }).toBe(1);
      child.kill('SIGINT');
      const r = await done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('tradeledger: stopped by SIGINT (Ctrl-C); nothing of this run was kept: its unfinished files were removed and the folder is as it was\n');
      expect(await snapshot(dir), 'no temporary file, nothing replaced').toEqual(before);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });
});

describe('outputFolderHint', () => {
  // Seen on a 64 KiB tmpfs: "cannot write ledger.csv in /mnt/tiny/r: no space left on the disk
  // (ENOSPC)" was told to "pass --out with a folder you can write to", which it was.
  it('tells a full disk (or quota) to free space, and anything else to pick a writable folder', () => {
    const failing = (code: string) => Object.assign(new Error(code), { code });
    expect(outputFolderHint(failing('ENOSPC'))).toBe('Free space on that disk, or pass --out with a folder on another disk.');
    expect(outputFolderHint(failing('EDQUOT'))).toBe('Free space on that disk, or pass --out with a folder on another disk.');
    expect(outputFolderHint(failing('EACCES'))).toBe('Pass --out with a folder you can write to.');
    expect(outputFolderHint(undefined)).toBe('Pass --out with a folder you can write to.');
  });
});

describe('fileWriteError', () => {
  // `gains --out` on a full disk ended "unexpected error: ENOSPC ... This is a bug" (report said it
  // well): both now word a file's failure the same way, and leave a query's error as it is.
  it('words a failed write of a file as REPORT_OUT_DIR (exit 2), and passes any other error through', async () => {
    const full = await writeFile('/dev/full', 'x').then(() => undefined, (e: unknown) => e);
    expect((full as NodeJS.ErrnoException).code).toBe('ENOSPC');
    const worded = fileWriteError(full, 'gains.csv', '/out') as { code: string; message: string; hint: string; kind: string };
    expect(worded).toMatchObject({ code: 'REPORT_OUT_DIR', kind: 'config', message: 'cannot write gains.csv in /out: no space left on the disk (ENOSPC)' });
    expect(worded.hint).toBe('Free space on that disk, or pass --out with a folder on another disk.');
    const queryError = Object.assign(new Error('relation "x" does not exist'), { code: '42P01' });
    expect(fileWriteError(queryError, 'gains.csv', '/out')).toBe(queryError);
  });
});
