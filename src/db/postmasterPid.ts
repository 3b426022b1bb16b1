import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../processAlive.js';

/** What a live server wrote into its `postmaster.pid`. */
export interface PostmasterPid {
  pid: number;
  port: number;
  /** `starting`, `ready`, `stopping` or `standby` (PostgreSQL 10+). */
  status: string;
}

/**
 * Reads `postmaster.pid` of a cluster folder and returns it only when that process is alive,
 * so a file left behind by a crash or a reboot counts as "not running".
 *
 * @example
 * const live = await livePostmaster('/srv/x/.tradeledger/pg/cluster'); // { pid: 4242, port: 54329, status: 'ready' }
 */
export async function livePostmaster(clusterDir: string): Promise<PostmasterPid | undefined> {
  let text: string;
  try {
    text = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  if (!processAlive(pid)) return undefined;
  return { pid, port, status: (lines[7] ?? '').trim() || 'starting' };
}
