import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// The folders made here, removed after the test file that made them (each file imports this
// module afresh, so each registers its own afterAll).
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A new folder under the system's temp folder, named by `prefix` plus six random characters
 * (mkdtemp), removed after the test file that made it (tests used to leave theirs in /tmp).
 *
 * @example
 * const out = tempFolder('gains-'); await runGains({ ..., outDir: out });
 */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
