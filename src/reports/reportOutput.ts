import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { TradeledgerError } from '../errors.js';
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
export async function reportOutput(dirGiven: string, files: readonly string[], force: boolean): Promise<ReportOutput> {
  const dir = path.resolve(dirGiven);
  const made = await makeFolder(dir);
  // A run that fails leaves the file system as it found it: the folders it made go too, if empty.
  const removeMade = async () => {
    for (const folder of [...made].reverse()) await rmdir(folder).catch(() => undefined);
  };
  const existing: string[] = [];
  for (const file of files) {
    const target = path.join(dir, file);
    const info = await lstat(target).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw folderError(dir, `cannot inspect ${target}: ${systemErrorWords(err)}`);
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
      for (const file of files) {
        const temp = temps.get(file);
        if (temp === undefined) continue;
        // rename replaces the directory entry itself; it never follows a link at the target.
        await rename(temp, path.join(dir, file));
        temps.delete(file);
      }
    },
    async discard() {
      await Promise.all([...temps.values()].map((t) => rm(t, { force: true })));
      temps.clear();
      await removeMade();
    },
  };
}

// fs.mkdir({ recursive: true }) loops forever on some paths (/proc/nope on Linux, Node 20), so
// the folder is made one level at a time. Returns the folders it created, outermost first.
async function makeFolder(dir: string): Promise<string[]> {
  const info = await stat(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw folderError(dir, `cannot use the output folder ${dir}: ${systemErrorWords(err)}`);
  });
  if (info !== undefined) {
    if (!info.isDirectory()) throw folderError(dir, `the output folder ${dir} exists and is not a folder`);
    return [];
  }
  const parent = path.dirname(dir);
  const made = parent !== dir ? await makeFolder(parent) : [];
  const created = await mkdir(dir).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') return false;
    throw folderError(dir, `cannot create the output folder ${dir}: ${systemErrorWords(err)}`);
  });
  return created ? [...made, dir] : made;
}

function folderError(dir: string, message: string): TradeledgerError {
  return new TradeledgerError('REPORT_OUT_DIR', message, { kind: 'config', details: { dir }, hint: 'Pass --out with a folder you can write to.' });
}
