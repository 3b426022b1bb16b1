import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCodeList, exitCodesOf, type ErrorCodeEntry } from '../../src/errorCodes.js';
import { exitCodes } from '../../src/errors.js';

// One list of error codes (src/errorCodes.ts), and the tables that show it: docs/operations.md's
// error-code table is the list (code, exit code, meaning, in order); the README's exit-code table
// has every exit code of src/errors.ts; and every code the sources throw is on the list, with the
// kind it is thrown with.
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (p: string) => readFileSync(join(root, p), 'utf8');

// Strings that look like codes and are not: environment variable names (TRADELEDGER_*, and an
// example in a doc comment), Node's and undici's error codes, a file of a PostgreSQL data folder.
const notErrorCodes = new Set(['MAIN_SECRET', 'HTTPS_PROXY', 'HTTP_PROXY', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'EAI_AGAIN', 'PG_VERSION']);
// The families of the list and the template that makes their codes.
const families: Record<string, RegExp> = { 'API_<exchange code>': /`API_\$\{code\}`/, 'API_HTTP_<status>': /`API_HTTP_\$\{/ };

function sources(dir = 'src'): { path: string; text: string }[] {
  return readdirSync(join(root, dir)).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(join(root, p)).isDirectory()) return sources(p);
    return /\.tsx?$/.test(e) && p !== join('src', 'errorCodes.ts') ? [{ path: p, text: read(p) }] : [];
  });
}

/** What is wrong between the sources, the list and the two tables ([] when they agree). */
function disagreements(files: { path: string; text: string }[], list: Record<string, ErrorCodeEntry>, operations: string, readme: string): string[] {
  const out: string[] = [];
  const used = new Set<string>();
  for (const { path, text } of files) {
    for (const m of text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|INTERNAL)'/g)) {
      const code = m[1]!;
      if (code.startsWith('TRADELEDGER_') || notErrorCodes.has(code)) continue;
      used.add(code);
      const entry = list[code];
      if (!entry) { out.push(`${path}: ${code} is not in src/errorCodes.ts`); continue; }
      // The kind given in the same call (the first `kind:` before the next code or call).
      const after = text.slice(m.index + m[0].length, m.index + m[0].length + 700).split(/TradeledgerError\(|'[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+'/)[0]!;
      const kind = /\bkind: '(\w+)'/.exec(after)?.[1];
      const kinds: readonly string[] = typeof entry.kind === 'string' ? [entry.kind] : entry.kind;
      if (kind !== undefined && !kinds.includes(kind)) out.push(`${path}: ${code} is thrown with kind ${kind}, listed as ${kinds.join('/')}`);
    }
  }
  const all = files.map((f) => f.text).join('\n');
  for (const code of Object.keys(list)) {
    if (families[code] ? !families[code].test(all) : !used.has(code)) out.push(`${code} is listed but no source makes it`);
  }
  const section = /\n## Error codes\n([\s\S]*?)\n## /.exec(operations)?.[1] ?? '';
  const rows = [...section.matchAll(/^\| `([^`]+)` \| ([\d, ]+) \| (.*) \|$/gm)].map((r) => ({ code: r[1]!, exits: r[2]!, what: r[3]!.replace(/\\\|/g, '|') }));
  const wanted = Object.entries(list).map(([code, e]) => ({ code, exits: exitCodesOf(e).join(', '), what: e.what }));
  if (JSON.stringify(rows) !== JSON.stringify(wanted)) {
    const have = new Map(rows.map((r) => [r.code, r]));
    for (const w of wanted) {
      const r = have.get(w.code);
      if (!r) out.push(`docs/operations.md: no row for ${w.code}`);
      else if (r.exits !== w.exits || r.what !== w.what) out.push(`docs/operations.md: ${w.code} reads "${r.exits} | ${r.what}", the list "${w.exits} | ${w.what}"`);
    }
    for (const r of rows) if (!Object.hasOwn(list, r.code)) out.push(`docs/operations.md: ${r.code} is not in the list`);
    if (out.length === 0) out.push('docs/operations.md: the rows are not in the list\'s order');
  }
  const readmeExits = [...readme.matchAll(/^\| (\d) \| /gm)].map((r) => Number(r[1]));
  const exits = [...new Set(Object.values(exitCodes))].sort();
  if (JSON.stringify(readmeExits) !== JSON.stringify(exits)) out.push(`README: the exit-code table lists ${readmeExits.join(', ')}, src/errors.ts has ${exits.join(', ')}`);
  return out;
}

describe('error codes', () => {
  const files = sources();
  const operations = read('docs/operations.md');
  const readme = read('README.md');

  it('are one list that the sources, docs/operations.md\'s table and the README\'s exit codes agree with', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(disagreements(files, errorCodeList, operations, readme)).toEqual([]);
    expect(Object.keys(errorCodeList).length).toBeGreaterThanOrEqual(60);
  });

  it('a code thrown but not listed, a listed code nobody throws, a wrong kind and a stale table row are each named', () => {
    const planted = [...files, { path: 'src/planted.ts', text: "throw new TradeledgerError('PLANTED_CODE', 'x', { kind: 'config' });\nthrow new TradeledgerError('DB_STOP', 'y', { kind: 'config' });" }];
    const list: Record<string, ErrorCodeEntry> = { ...errorCodeList, NEVER_THROWN: { kind: 'config', what: 'nothing' } };
    const table = operations.replace('| `DB_ERROR` | 4 |', '| `DB_ERROR` | 2 |');
    const readmeWithout5 = readme.replace(/^\| 5 \| .*$/m, '');
    expect(disagreements(planted, list, table, readmeWithout5)).toEqual([
      'src/planted.ts: PLANTED_CODE is not in src/errorCodes.ts',
      'src/planted.ts: DB_STOP is thrown with kind config, listed as database',
      'NEVER_THROWN is listed but no source makes it',
      expect.stringMatching(/^docs\/operations\.md: DB_ERROR reads "2 \| /),
      'docs/operations.md: no row for NEVER_THROWN',
      'README: the exit-code table lists 0, 1, 2, 3, 4, src/errors.ts has 0, 1, 2, 3, 4, 5',
    ]);
  });
});
