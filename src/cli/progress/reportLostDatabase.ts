import type { SyncResult } from '../../extract/runSync.js';
import { redactUrl } from '../../db/redactUrl.js';
import { tooManyConnectionsFix, tooManyConnectionsSaid } from '../../db/connectionProblem.js';

/**
 * Tells the operator, in one line and a fix, that a run failed because PostgreSQL went away
 * (a restart, a network cut) and that every page committed before is kept.
 *
 * @example
 * if (result.status === 'failed') reportLostDatabase(result, url);
 */
export function reportLostDatabase(result: SyncResult, url: string, out: NodeJS.WritableStream = process.stderr): void {
  // A restart also ends the session holding the account locks: those partitions stopped with SYNC_LOCK_LOST.
  const lost = result.errors.filter((e) => e.code === 'DB_CONNECTION_LOST' || e.code === 'SYNC_LOCK_LOST');
  // The connection loss first (DB_CONNECTION_LOST names PostgreSQL's own words), else the lock
  // the restart took with it; the line always says it was PostgreSQL that went.
  const first = (lost.find((e) => e.code === 'DB_CONNECTION_LOST') ?? lost[0])?.message ?? 'the connection was lost';
  if (first.startsWith(tooManyConnectionsSaid)) {
    // 53300: nothing went away; the server had no room for one more connection (runSync's words: said, then the fix).
    const said = first.slice(0, first.indexOf('): ') + 1) || first;
    out.write(`tradeledger: sync run ${result.runId} failed: ${said.replace(/\s+/g, ' ')} at ${redactUrl(url)}; ${lost.length} partition(s) stopped, every page committed before is kept\n`
      + `  fix: ${tooManyConnectionsFix}\n`);
    return;
  }
  out.write(`tradeledger: sync run ${result.runId} failed: lost PostgreSQL at ${redactUrl(url)} (${first.replace(/\s+/g, ' ')}); ${lost.length} partition(s) stopped, every page committed before is kept\n`
    + '  fix: check that PostgreSQL is up again (it may have restarted), then rerun the sync: it resumes where it stopped\n');
}
