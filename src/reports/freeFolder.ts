import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The first of `root/rest`, `root-2/rest`, `root-3/rest`, ... that does not exist yet: where a
 * run writes by default, so a second run (or a report after the demo) lands beside the first
 * instead of being refused or overwriting it. An explicit folder is never moved.
 *
 * @example
 * freeFolder('tradeledger-reports/2026', 'koinly'); // 'tradeledger-reports/2026-2/koinly' after a demo
 */
export function freeFolder(root: string, ...rest: string[]): string {
  for (let n = 1; ; n++) {
    const candidate = path.join(n === 1 ? root : `${root}-${n}`, ...rest);
    if (!existsSync(candidate)) return candidate;
  }
}
