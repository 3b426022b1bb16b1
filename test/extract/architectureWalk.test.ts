import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/architecture.md walks one record from the exchange's HTTP answer to a CSV row, naming
// files and functions. This keeps the names true: every file it names exists (in src/, a bare
// name in src/extract/, reports/<name>.sql in the repository), and every function, class or
// setting it names in backticks occurs in the sources.
const root = fileURLToPath(new URL('../../', import.meta.url));

function allSources(dir: string): string {
  return readdirSync(join(root, dir)).map((e) => {
    const p = join(dir, e);
    return statSync(join(root, p)).isDirectory() ? allSources(p) : /\.(ts|tsx|sql)$/.test(e) ? readFileSync(join(root, p), 'utf8') : '';
  }).join('\n');
}

function problems(walk: string, sources: string): string[] {
  const out: string[] = [];
  for (const [, name] of walk.matchAll(/`([^`\s]+)`/g)) {
    const n = name!.replace(/\(\)$/, '');
    if (/\.(ts|tsx)$/.test(n)) {
      if (![join('src', n), join('src/extract', n)].some((p) => existsSync(join(root, p)))) out.push(`no file ${n}`);
    } else if (/^reports\/[a-z-]+\.sql$/.test(n) || n.startsWith('reports/<')) {
      if (!n.includes('<') && !existsSync(join(root, n))) out.push(`no file ${n}`);
    } else if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(n)) {
      const last = n.split('.').pop()!;
      if (!new RegExp(`\\b${last}\\b`).test(sources)) out.push(`no ${n} in the sources`);
    }
  }
  return out;
}

describe('docs/architecture.md: one record\'s path from the HTTP answer to a CSV row', () => {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const walk = /## One record's path through a sync[\s\S]*?\n## /.exec(doc)?.[0] ?? '';
  const sources = allSources('src') + allSources('sql/schema');

  it('names only files and functions that exist', () => {
    expect(walk).toContain('api/interpretResponse.ts');
    expect(walk).toContain('reports/streamQueryToCsv.ts');
    expect(problems(walk, sources)).toEqual([]);
  });

  it('would name a file or function that does not', () => {
    expect(problems('`extract/noSuchFile.ts` then `noSuchFunction` and `pageCheck.ts`', sources)).toEqual(['no file extract/noSuchFile.ts', 'no noSuchFunction in the sources']);
  });
});
