#!/usr/bin/env node
// Runs the CLI from dist/ (compiled by bin/build.js, which `npm ci` runs) while that build is
// newer than every file under src/; otherwise straight from the TypeScript sources through tsx,
// so a fresh clone or an edited tree needs no build step. TRADELEDGER_FROM_SOURCE=1 always runs
// the sources.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtIsCurrent } from './builtIsCurrent.js';

// A reader that stops early (`tradeledger --help | head`) closes the pipe: end quietly, as other
// command-line tools do, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

let main;
if (process.env.TRADELEDGER_FROM_SOURCE !== '1' && builtIsCurrent(fileURLToPath(new URL('..', import.meta.url)))) {
  ({ main } = await import('../dist/cli/main.js'));
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    process.stderr.write(`tradeledger: its dependencies are not installed (${error.message.split('\n')[0]})\n  fix: run \`npm ci\` in ${fileURLToPath(new URL('..', import.meta.url))}, then run the command again.\n`);
    process.exit(1);
  }
  // The project's tsconfig.json (JSX for the portal's pages, among others), wherever the command
  // is run from: tsx would otherwise look for one in the working folder.
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  register(existsSync(tsconfig) ? { tsconfig } : {});
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
