#!/usr/bin/env node
// Compiles src/ (TypeScript) into dist/ (JavaScript, one file per source, same layout), so the
// CLI starts without a TypeScript loader: about 60 MB less resident memory per process and no
// compile step at start-up. `npm ci` runs it (the "prepare" script); bin/tradeledger.js uses
// dist/ only while it is newer than every file under src/ and otherwise runs the sources through
// tsx, so an edit is never shadowed by an old build. dist/ mirrors src/ one level below the
// repository, so paths a module finds from its own location (../../sql/, ../../package.json,
// ./assets/) point at the same files from either tree.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const started = new Date();
const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
  .map((f) => join(src, f));
rmSync(dist, { recursive: true, force: true });
try {
  buildSync({
    entryPoints: files, outdir: dist, outbase: src, format: 'esm', platform: 'node', target: 'node20',
    jsx: 'automatic', jsxImportSource: 'hono/jsx', logLevel: 'silent',
  });
} catch (err) {
  // No stamp is written, so the CLI keeps running the sources through tsx. Under `npm ci`
  // (the prepare script) that is a warning, not a failed install; `npm run build` fails.
  const first = err?.errors?.[0];
  const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
  process.stderr.write(`tradeledger: could not compile src/ into dist/: ${first?.text ?? err?.message ?? err}${where}\n`
    + '  the CLI runs from the sources through tsx meanwhile (slower start, more memory); fix: correct the file, then `npm run build`\n');
  process.exit(process.env.npm_lifecycle_event === 'prepare' ? 0 : 1);
}
vendorKysely();
cpSync(join(src, 'portal', 'assets'), join(dist, 'portal', 'assets'), { recursive: true });
// The stamp carries the time the build started: a source saved during the build counts as newer.
mkdirSync(dist, { recursive: true });
const stamp = join(dist, '.built');
writeFileSync(stamp, `built from src/ by bin/build.js: ${files.length} files\n`);
utimesSync(stamp, started, started);

/**
 * kysely's ES module build is 288 files: finding and compiling them was 0.12-0.15 s of every
 * command's start, more than the CLI's own modules (issue 24 item 6). dist/ imports one bundled
 * copy of it instead (dist/vendor/kysely.js, ~0.03 s to load), made here from the installed
 * package, so it is the version package-lock.json pins. Only our modules import kysely, so
 * there is one copy of its classes at run time. If the bundle cannot be made, dist/ keeps
 * importing the package as it is.
 */
function vendorKysely() {
  const vendored = join(dist, 'vendor', 'kysely.js');
  try {
    buildSync({
      entryPoints: [fileURLToPath(import.meta.resolve('kysely'))], bundle: true, outfile: vendored,
      format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent',
    });
  } catch (err) {
    process.stderr.write(`tradeledger: could not bundle kysely into dist/vendor (${err?.errors?.[0]?.text ?? err?.message ?? err}); dist/ imports the package instead\n`);
    return;
  }
  for (const f of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
    const file = join(dist, f);
    if (!f.endsWith('.js') || file === vendored) continue;
    const text = readFileSync(file, 'utf8');
    if (!text.includes('from "kysely"')) continue;
    let to = relative(dirname(file), vendored).split(sep).join('/');
    if (!to.startsWith('.')) to = `./${to}`;
    writeFileSync(file, text.replaceAll('from "kysely"', `from ${JSON.stringify(to)}`));
  }
}
