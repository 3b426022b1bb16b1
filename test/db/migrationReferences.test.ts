import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Schema says what is; migrations say why it changed (docs/architecture.md). So a reader is sent
// to sql/schema/<kind>/<name>.sql for what a view, function or table is now, and to a migration
// only by its full path (sql/migrations/NNNN_name.sql) for when and why something changed. The
// short form `sql/NNNN` named files that no longer exist (the migrations moved to sql/migrations/)
// and, for the ledger, ledger_valued and tax_transactions, versions that later ones replaced.
const root = fileURLToPath(new URL('../../', import.meta.url));
// What is searched: every text file of these folders and files. Left out: sql/migrations/ (their
// history is what they are) and BENCHMARKS.md (each entry records the version it measured).
const searched = ['README.md', 'docs', 'reports', 'src', 'test', 'bin', 'sql/schema'];
const textFile = /\.(ts|tsx|js|mjs|sql|md|json|txt|html|css)$/;

/** Each file below `paths` (relative to `base`) with its text. */
function textFiles(base: string, paths: string[]): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (p: string) => {
    const full = join(base, p);
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) {
      for (const e of readdirSync(full)) if (e !== 'node_modules' && e !== 'dist') walk(join(p, e));
    } else if (textFile.test(p) && statSync(full, { throwIfNoEntry: false })) {
      out.push({ path: relative(base, full), text: readFileSync(full, 'utf8') });
    }
  };
  for (const p of paths) walk(p);
  return out;
}

/** Every reference that breaks the rule above, as `file:line: reference`. */
function badReferences(base: string, files: { path: string; text: string }[]): string[] {
  const migrations = new Set(readdirSync(join(base, 'sql/migrations')));
  const numbers = new Set([...migrations].map((f) => f.slice(0, 4)));
  const bad: string[] = [];
  for (const { path, text } of files) {
    text.split('\n').forEach((line, i) => {
      const at = `${path}:${i + 1}`;
      for (const m of line.matchAll(/sql\/\d{4}\S*/g)) bad.push(`${at}: ${m[0]} (a short migration path: cite sql/schema/<kind>/<name>.sql, or sql/migrations/<file> for why it changed)`);
      for (const m of line.matchAll(/sql\/migrations\/(\d{4})([a-z0-9_]*\.sql)?/g)) {
        if (m[2] ? !migrations.has(`${m[1]}${m[2]}`) : !numbers.has(m[1]!)) bad.push(`${at}: ${m[0]} (no such migration)`);
      }
      for (const m of line.matchAll(/sql\/schema\/((?:tables|views|functions)\/[a-z0-9_]+\.sql)/g)) {
        if (!statSync(join(base, 'sql/schema', m[1]!), { throwIfNoEntry: false })) bad.push(`${at}: ${m[0]} (no such file: sql/schema/ has no object of that name)`);
      }
    });
  }
  return bad;
}

describe('references to the schema', () => {
  it('cite sql/schema/ or an existing sql/migrations/ file, never a short sql/NNNN path', () => {
    const files = textFiles(root, searched).filter((f) => f.path !== 'test/db/migrationReferences.test.ts');
    expect(files.length).toBeGreaterThan(300);
    expect(badReferences(root, files)).toEqual([]);
  });

  it('catches a planted short path, a missing migration and a missing schema file', () => {
    const planted = [
      { path: 'reports/x.sql', text: '-- the ledger (sql/0011)\n-- fine: sql/schema/views/ledger.sql' },
      { path: 'src/y.ts', text: '// see sql/migrations/0999_nothing.sql and sql/schema/views/no_such_view.sql' },
      { path: 'docs/z.md', text: 'why: sql/migrations/0062_reconciliation_explained.sql, sql/migrations/0061' },
    ];
    expect(badReferences(root, planted)).toEqual([
      expect.stringMatching(/^reports\/x\.sql:1: sql\/0011\) \(a short migration path/),
      expect.stringMatching(/^src\/y\.ts:1: sql\/migrations\/0999_nothing\.sql \(no such migration\)/),
      expect.stringMatching(/^src\/y\.ts:1: sql\/schema\/views\/no_such_view\.sql \(no such file/),
    ]);
  });
});
