import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when `root`/dist was built (bin/build.js) after the last change to anything under
 * `root`/src: a file saved, added or deleted (which changes its folder's time). The CLI runs the
 * compiled dist/ only then, so an edit is never shadowed by an old build.
 *
 * @example
 * builtIsCurrent('/home/me/tradeledger') // false right after editing src/cli/main.ts
 */
export function builtIsCurrent(root) {
  let built;
  try {
    built = statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return false;
  }
  const src = join(root, 'src');
  if (statSync(src).mtimeMs > built) return false;
  for (const f of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (statSync(join(src, f)).mtimeMs > built) return false;
  }
  return true;
}
