#!/usr/bin/env node
// Runs the CLI from dist/ (compiled by bin/build.js, which `npm ci` runs) while that build is
// newer than every file under src/; otherwise straight from the TypeScript sources through tsx,
// so a fresh clone or an edited tree needs no build step. TRADELEDGER_FROM_SOURCE=1 always runs
// the sources.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtIsCurrent } from './builtIsCurrent.js';

let main;
if (process.env.TRADELEDGER_FROM_SOURCE !== '1' && builtIsCurrent(fileURLToPath(new URL('..', import.meta.url)))) {
  ({ main } = await import('../dist/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  // The project's tsconfig.json (JSX for the portal's pages, among others), wherever the command
  // is run from: tsx would otherwise look for one in the working folder.
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  register(existsSync(tsconfig) ? { tsconfig } : {});
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
