import { open, readFile, rm, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TradeledgerError } from '../errors.js';

/**
 * Runs `fn` while holding `<dir>/start.lock`, so two commands starting the same embedded server
 * at once take turns instead of both running initdb. A lock left by a dead process is taken over.
 *
 * @example
 * await withStartLock(dataDir, async () => { await initialise(); await start(); });
 */
export async function withStartLock<T>(dir: string, fn: () => Promise<T>, waitMs = 120_000): Promise<T> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'start.lock');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(await readFile(path, 'utf8').catch(() => ''));
      if (!ownerAlive(owner) || (owner === 0 && await olderThan(path, 10_000))) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new TradeledgerError('DB_START_LOCK', `another tradeledger process (pid ${owner}) has been starting the embedded PostgreSQL in ${dir} for too long`, {
          kind: 'database', hint: `Wait for it to finish, or stop process ${owner} and run the command again.`,
        });
      }
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > ms;
}

function ownerAlive(pid: number): boolean {
  // An empty file means the owner is between creating and writing it: alive, unless it stays empty.
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
