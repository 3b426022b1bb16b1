#!/usr/bin/env node
// Runs the CLI from dist/ (compiled by bin/build.js, which `npm ci` runs) while that build is
// newer than every file under src/; otherwise straight from the TypeScript sources through tsx,
// so a fresh clone or an edited tree needs no build step. TRADELEDGER_FROM_SOURCE=1 always runs
// the sources.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function builtIsCurrent() {
  if (process.env.TRADELEDGER_FROM_SOURCE === '1') return false;
  const root = fileURLToPath(new URL('..', import.meta.url));
  let built;
  try {
    built = statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return false;
  }
  // Directories too: adding or deleting a file changes its folder's time.
  const src = join(root, 'src');
  if (statSync(src).mtimeMs > built) return false;
  for (const f of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (statSync(join(src, f)).mtimeMs > built) return false;
  }
  return true;
}

let main;
if (builtIsCurrent()) {
  ({ main } = await import('../dist/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
