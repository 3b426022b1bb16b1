import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { builtIsCurrent } from '../../bin/builtIsCurrent.js';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'tradeledger-build-'));
  dirs.push(root);
  return root;
}

const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

describe('dist/ is used only while it is newer than every source', () => {
  it('builtIsCurrent: no build, a current build, an edited file, an added file, a deleted file', () => {
    const root = tree();
    cpSync(join(repo, 'src', 'db'), join(root, 'src', 'db'), { recursive: true });
    expect(builtIsCurrent(root)).toBe(false); // never built
    writeFileSync(join(root, 'src', 'db', 'extra.ts'), 'export {};\n');
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((f) => join(root, 'src', f));
    for (const f of [join(root, 'src'), ...files]) at(f, 1_000);
    cpSync(join(repo, 'src', 'errors.ts'), join(root, 'dist', 'errors.js'));
    writeFileSync(join(root, 'dist', '.built'), 'stamp\n');
    at(join(root, 'dist', '.built'), 2_000);
    expect(builtIsCurrent(root)).toBe(true);
    at(join(root, 'src', 'db', 'createDb.ts'), 3_000); // an edit
    expect(builtIsCurrent(root)).toBe(false);
    at(join(root, 'src', 'db', 'createDb.ts'), 1_000);
    expect(builtIsCurrent(root)).toBe(true);
    rmSync(join(root, 'src', 'db', 'extra.ts')); // a deletion changes the folder's time (now)
    expect(builtIsCurrent(root)).toBe(false);
  });

  it('bin/build.js compiles every source, and the CLI runs the build until a source changes', () => {
    const root = tree();
    for (const p of ['bin', 'src', 'sql', 'reports', 'package.json']) cpSync(join(repo, p), join(root, p), { recursive: true });
    symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
    execFileSync(process.execPath, [join(root, 'bin', 'build.js')]);
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((f) => !existsSync(join(root, 'dist', f.replace(/\.tsx?$/, '.js'))))).toEqual([]);
    expect(existsSync(join(root, 'dist', 'portal', 'assets', 'portal.css'))).toBe(true);
    // kysely comes from one bundled copy (its 288 module files cost every command's start):
    // no module imports the package itself, and the copy has what they import.
    const built = readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    const users = built.filter((f) => readFileSync(join(root, 'dist', f), 'utf8').includes('/vendor/kysely.js"'));
    expect(users.length).toBeGreaterThan(10);
    expect(built.filter((f) => /from "kysely"/.test(readFileSync(join(root, 'dist', f), 'utf8')))).toEqual([]);
    const exported = execFileSync(process.execPath, ['--input-type=module', '-e',
      `const k = await import(${JSON.stringify(`file://${join(root, 'dist', 'vendor', 'kysely.js')}`)}); console.log(['Kysely', 'PostgresDialect', 'sql', 'CompiledQuery'].map((n) => typeof k[n]).join(' '))`], { encoding: 'utf8' });
    expect(exported.trim()).toBe('function function function object');
    // Mark the build's copy of main.js, so the help text tells which tree ran.
    const main = join(root, 'dist', 'cli', 'main.js');
    writeFileSync(main, readFileSync(main, 'utf8').replace('Copy an exchange account', 'COMPILED: Copy an exchange account'));
    const help = () => execFileSync(process.execPath, [join(root, 'bin', 'tradeledger.js'), '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(help()).toContain('COMPILED: Copy an exchange account');
    const edited = join(root, 'src', 'cli', 'main.ts');
    writeFileSync(edited, readFileSync(edited, 'utf8')); // saved again: newer than the build
    expect(help()).not.toContain('COMPILED');
    expect(help()).toContain('Copy an exchange account');
  }, 180_000);

  it('a source that does not compile: a clear message and no stamp, so the CLI keeps to the sources', () => {
    const root = tree();
    for (const p of ['bin', 'src', 'package.json']) cpSync(join(repo, p), join(root, p), { recursive: true });
    symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, 'src', 'broken.ts'), 'export const x = ;\n');
    const build = (env: Record<string, string>) => spawnSync(process.execPath, [join(root, 'bin', 'build.js')], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
    const byHand = build({});
    expect(byHand.status).toBe(1);
    expect(byHand.stderr).toMatch(/^tradeledger: could not compile src\/ into dist\/: .*broken\.ts:1\)\n  the CLI runs from the sources/);
    expect(byHand.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(root, 'dist', '.built'))).toBe(false);
    expect(builtIsCurrent(root)).toBe(false);
    // Under npm ci (the prepare script) the install goes on.
    expect(build({ npm_lifecycle_event: 'prepare' }).status).toBe(0);
  }, 180_000);
});
