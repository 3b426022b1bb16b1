import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TradeledgerError } from '../errors.js';
import { processAlive } from '../processAlive.js';
import { systemErrorWords } from '../systemErrorWords.js';

/** The files of one report run, written under temporary names until {@link ReportOutput.commit}. */
export interface ReportOutput {
  readonly dir: string;
  /**
   * The temporary path a file is to be written to. Create it exclusively (flag 'wx', O_EXCL), so
   * that nothing planted at that name, a symlink included, is ever opened.
   */
  temporary(file: string): string;
  /** Renames every temporary file to its final name, in the order given to {@link reportOutput}. */
  commit(): Promise<void>;
  /** Removes the temporary files (after a failure): the folder is left as it was. */
  discard(): Promise<void>;
}

/**
 * Prepares a report's output folder without ever harming what is already there: creates the
 * folder (parent by parent, so an impossible path such as /proc/nope fails at once), refuses an
 * existing file unless `force`, refuses a symlink at any target name even with `force` (renaming
 * over it would be safe, but following it is what an attacker who planted it wants, and a
 * link there is never what the accountant meant), and hands out temporary names in the same
 * folder so each file appears only once complete, by rename.
 *
 * @example
 * const out = await reportOutput('reports/2025', ['ledger.csv', 'manifest.json'], false);
 * try { await writeFile(out.temporary('ledger.csv'), text, { flag: 'wx' }); await out.commit(); }
 * catch (e) { await out.discard(); throw e; }
 */
export async function reportOutput(dirGiven: string, files: readonly string[], force: boolean, claim = false): Promise<ReportOutput> {
  const dir = path.resolve(dirGiven);
  const made = await makeFolder(dir, claim);
  // A run that fails leaves the file system as it found it: the folders it made go too, if empty.
  const removeMade = async () => {
    for (const folder of [...made].reverse()) await rmdir(folder).catch(() => undefined);
  };
  const existing: string[] = [];
  for (const file of files) {
    const target = path.join(dir, file);
    const info = await lstat(target).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw folderError(dir, `cannot inspect ${target}: ${systemErrorWords(err)}`, err);
    });
    if (info === undefined) continue;
    if (info.isSymbolicLink()) {
      throw new TradeledgerError('REPORT_TARGET_SYMLINK', `${target} is a symbolic link; a report never writes through a link`, {
        kind: 'config', hint: `Remove the link (rm ${target}) or choose another --out folder.`,
      });
    }
    if (!info.isFile()) throw folderError(dir, `${target} exists and is not a regular file`);
    existing.push(file);
  }
  if (existing.length > 0 && !force) {
    await removeMade();
    throw new TradeledgerError('REPORT_WOULD_OVERWRITE', `${dir} already holds ${existing.join(', ')}; a report never overwrites files unless told to`, {
      kind: 'config', hint: 'Choose another --out folder, move the old files away, or pass --force to replace them.',
    });
  }
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temps = new Map<string, string>();
  return {
    dir,
    temporary(file) {
      const temp = path.join(dir, `.${file}.${tag}.tmp`);
      temps.set(file, temp);
      return temp;
    },
    async commit() {
      const release = await commitLock(dir);
      try {
        await place();
      } finally {
        await release();
      }
    },
    async discard() {
      await Promise.all([...temps.values()].map((t) => rm(t, { force: true })));
      temps.clear();
      await removeMade();
    },
  };

  // Puts every temporary file in place (with the folder's commit lock held).
  async function place(): Promise<void> {
    if (force) {
      for (const file of files) {
        const temp = temps.get(file);
        if (temp === undefined) continue;
        // rename replaces the directory entry itself; it never follows a link at the target.
        await rename(temp, path.join(dir, file));
        temps.delete(file);
      }
      return;
    }
    // Without --force, a file that appeared since the folder was checked (another run writing
    // the same folder at the same time) is never replaced: each file is put in place with
    // link(), which fails if the name exists, and if any does, this run's own are taken back
    // and nothing of the other run's is touched. Before, the later rename silently won.
    const placed: string[] = [];
    let taken: string | undefined;
    for (const file of files) {
      const temp = temps.get(file);
      if (temp === undefined) continue;
      const target = path.join(dir, file);
      const ok = await link(temp, target).then(() => true, async (err: NodeJS.ErrnoException) => {
        if (err.code === 'EEXIST') return false;
        // A file system without hard links: the check and the rename, as close together as can be.
        if (err.code === 'EPERM' || err.code === 'ENOTSUP' || err.code === 'EOPNOTSUPP' || err.code === 'ENOSYS') {
          if (await lstat(target).then(() => true, () => false)) return false;
          await rename(temp, target);
          return true;
        }
        throw err;
      });
      if (!ok) { taken = file; break; }
      placed.push(file);
    }
    if (taken !== undefined) {
      for (const file of placed) await unlink(path.join(dir, file)).catch(() => undefined);
      throw new TradeledgerError('REPORT_WOULD_OVERWRITE', `${path.join(dir, taken)} appeared while this report was being written (another run writing the same folder?); a report never overwrites files unless told to, so none of this run's files were put there`, {
        kind: 'config', hint: 'Run it again (a default folder moves on to the next free name), choose another --out folder, or pass --force to replace them.',
      });
    }
    for (const file of placed) {
      await rm(temps.get(file)!, { force: true });
      temps.delete(file);
    }
  }
}

/** The name of the lock file a run holds in its folder while it puts its files in place. */
export const commitLockName = '.tradeledger-commit.lock';

/**
 * Takes the folder's commit lock: a file made exclusively, holding this process's id, so that
 * two runs never put their files in one folder at the same time (two `--force` runs started
 * together ended with some files of each, and a manifest that did not match them). A lock whose
 * process is gone (killed mid-commit) is taken over; one held longer than two minutes by a live
 * process is an error. Resolves to the function that releases it.
 */
async function commitLock(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, commitLockName);
  const giveUpAt = Date.now() + 120_000;
  for (;;) {
    const made = await writeFile(file, `${process.pid}\n`, { flag: 'wx' }).then(() => true, (err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST') return false;
      throw folderError(dir, `cannot write in ${dir}: ${systemErrorWords(err)}`, err);
    });
    if (made) return () => rm(file, { force: true });
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(holder) || holder <= 0 || !processAlive(holder)) {
      await unlink(file).catch(() => undefined); // a lock left by a run that died: taken over
      continue;
    }
    if (Date.now() > giveUpAt) {
      throw folderError(dir, `another tradeledger run (process ${holder}) has been putting its files in ${dir} for two minutes; this run's files were not put there`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The folder a {@link reportOutput} with `claim` was to make exists already (another run's, or an earlier one's). */
export class FolderTaken extends Error {}

/**
 * A report's output in the first of `root/rest`, `root-2/rest`, ... that this call creates
 * itself: the default folders, where two runs started together once both took `root/rest` (each
 * saw it free) and the second's files replaced the first's.
 *
 * @example
 * const out = await claimReportOutput('tradeledger-reports/2025', ['koinly'], ['koinly.csv', 'manifest.json']);
 */
export async function claimReportOutput(root: string, rest: readonly string[], files: readonly string[]): Promise<ReportOutput> {
  for (let n = 1; ; n++) {
    try {
      return await reportOutput(path.join(n === 1 ? root : `${root}-${n}`, ...rest), files, false, true);
    } catch (err) {
      if (!(err instanceof FolderTaken)) throw err;
    }
  }
}

/**
 * The first of `root`, `root-2`, `root-3`, ... that this call creates itself, made (with its
 * parents): the demo's folder of this year's reports, so that two demos started together in one
 * folder write beside each other, as a second demo later does. (Checking that a name was free and
 * making it later gave both the same folder.)
 *
 * @example
 * await claimFolder('tradeledger-reports/2026'); // 'tradeledger-reports/2026-2' after a demo
 */
export async function claimFolder(root: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? root : `${root}-${n}`;
    try {
      await makeFolder(candidate, true);
      return candidate;
    } catch (err) {
      if (!(err instanceof FolderTaken)) throw err;
    }
  }
}

// fs.mkdir({ recursive: true }) loops forever on some paths (/proc/nope on Linux, Node 20), so
// the folder is made one level at a time. Returns the folders it created, outermost first.
// `claim`: the folder itself must be new, made by this call (else FolderTaken).
async function makeFolder(dir: string, claim = false): Promise<string[]> {
  const info = await stat(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw folderError(dir, `cannot use the output folder ${dir}: ${systemErrorWords(err)}`, err);
  });
  if (info !== undefined) {
    if (claim) throw new FolderTaken(dir);
    if (!info.isDirectory()) throw folderError(dir, `the output folder ${dir} exists and is not a folder`);
    return [];
  }
  const parent = path.dirname(dir);
  const made = parent !== dir ? await makeFolder(parent) : [];
  const created = await mkdir(dir).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') return false;
    throw folderError(dir, `cannot create the output folder ${dir}: ${systemErrorWords(err)}`, err);
  });
  if (!created && claim) {
    for (const folder of [...made].reverse()) await rmdir(folder).catch(() => undefined);
    throw new FolderTaken(dir);
  }
  return created ? [...made, dir] : made;
}

function folderError(dir: string, message: string, cause?: unknown): TradeledgerError {
  return new TradeledgerError('REPORT_OUT_DIR', message, { kind: 'config', details: { dir }, cause, hint: outputFolderHint(cause) });
}

/**
 * A report or gains file that could not be written (a full disk, a folder made read-only under
 * the run), as the REPORT_OUT_DIR error that says so; any other failure (the query's) as it is.
 *
 * @example
 * await writeFile(output.temporary(file), text, { flag: 'wx' }).catch((e) => { throw fileWriteError(e, file, output.dir); });
 */
export function fileWriteError(err: unknown, file: string, dir: string): unknown {
  const fileError = err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string' && typeof (err as NodeJS.ErrnoException).code === 'string';
  if (!fileError) return err;
  return new TradeledgerError('REPORT_OUT_DIR', `cannot write ${file} in ${dir}: ${systemErrorWords(err)}`, { kind: 'config', cause: err, details: { dir }, hint: outputFolderHint(err) });
}

/**
 * What to do when an output folder cannot be written: a full disk (or quota) needs space, not
 * another folder one can write to.
 *
 * @example
 * outputFolderHint(Object.assign(new Error('x'), { code: 'ENOSPC' })); // 'Free space on that disk, or ...'
 */
export function outputFolderHint(cause?: unknown): string {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT'
    ? 'Free space on that disk, or pass --out with a folder on another disk.'
    : 'Pass --out with a folder you can write to.';
}
