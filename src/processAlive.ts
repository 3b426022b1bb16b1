/**
 * Whether a process with this id exists on this machine (signal 0 checks without sending).
 * EPERM means it exists but belongs to another user (the postgres user, when we are not root).
 *
 * @example
 * processAlive(process.pid); // true
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
