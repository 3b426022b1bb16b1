import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionColumns } from '../../src/db/schemaFiles.js';
import { freshDatabase, type FreshDatabase } from '../support/database.js';

// Every column an analyst (or an operator) reads has a COMMENT, so that `\d+` in psql and the
// generated data dictionary (docs/schema.md) say what it holds. What counts as analyst-facing:
const analystFacing = {
  // every table and view of these schemas (the app's own tables included: sync status,
  // reconciliation, prices, imports, gains, the portal's audit)
  schemas: ['public'],
  // and the output columns of these table functions, whose meanings sit on the composite type
  // <function>_columns (a function's columns take no COMMENT; sql/migrations/0070_column_comments.sql)
  functions: ['ledger_valued', 'tax_transactions'],
};

type Client = pg.Client;

/** Each analyst-facing column without a comment, as `relation.column`, plus each function whose columns type is missing or differs. */
async function uncommented(client: Client, functions: string[]): Promise<string[]> {
  const { rows } = await client.query<{ col: string }>(`
    SELECT format('%s %s.%s', CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'view' WHEN 'c' THEN 'type' ELSE 'table' END, c.relname, a.attname) AS col
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'c') AND a.attnum > 0 AND NOT a.attisdropped
      AND coalesce(col_description(a.attrelid, a.attnum), '') = ''
    ORDER BY 1`, [analystFacing.schemas]);
  const out = rows.map((r) => r.col);
  for (const f of functions) {
    const outputs = await functionColumns(client, f);
    if (outputs.length === 0) { out.push(`function ${f}: no such table function`); continue; }
    const { rows: documented } = await client.query<{ name: string; type: string }>(`
      SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type FROM pg_attribute a
      WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, [`public.${f}_columns`]);
    const have = documented.map((c) => `${c.name} ${c.type}`).join(', ');
    const want = outputs.map((c) => `${c.name} ${c.type}`).join(', ');
    if (have !== want) out.push(`function ${f}: its columns (${want}) are not those of type ${f}_columns (${have || 'missing'})`);
  }
  return out;
}

describe('column comments', () => {
  let fresh: FreshDatabase;
  let client: Client;
  beforeAll(async () => {
    fresh = await freshDatabase();
    client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await fresh?.drop();
  });

  it('every column of every table, view and analyst table function has one', async () => {
    expect(await uncommented(client, analystFacing.functions)).toEqual([]);
    const { rows: [n] } = await client.query<{ n: number }>(`
      SELECT count(*)::int AS n FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'c') AND a.attnum > 0 AND NOT a.attisdropped`);
    expect(n!.n).toBeGreaterThan(700);
  });

  it('and docs/schema.md shows them, the functions\' columns included', async () => {
    const dictionary = await readFile(fileURLToPath(new URL('../../docs/schema.md', import.meta.url)), 'utf8');
    expect(dictionary).toMatch(/\| `amount` \| numeric \| the signed change: > 0 the coin came in/);
    expect(dictionary).toMatch(/### function `ledger_valued`[\s\S]*?\| `price_source` \| text \| the rule that gave the value/);
    expect(dictionary).toMatch(/### function `tax_transactions`[\s\S]*?\| `own_account` \| boolean \| true when both legs/);
    // No column row of the dictionary has an empty meaning.
    expect(dictionary.split('\n').filter((l) => /^\| `[^`]+` \| [^|]+ \|\s*\|$/.test(l))).toEqual([]);
  });

  it('a planted view, column and function without comments are each named', async () => {
    await client.query('BEGIN');
    try {
      await client.query(`CREATE VIEW planted_view AS SELECT 1 AS planted_column`);
      await client.query(`ALTER TABLE spot_fills ADD COLUMN planted_typed numeric`);
      await client.query(`CREATE FUNCTION planted_fn() RETURNS TABLE (x int) LANGUAGE sql AS 'SELECT 1'`);
      await client.query(`ALTER TYPE ledger_valued_columns DROP ATTRIBUTE fx_day`);
      const found = await uncommented(client, [...analystFacing.functions, 'planted_fn']);
      expect(found).toEqual(expect.arrayContaining([
        'view planted_view.planted_column',
        'table spot_fills.planted_typed',
        expect.stringMatching(/^function planted_fn: .* \(missing\)$/),
        expect.stringMatching(/^function ledger_valued: its columns \(.*fx_day date.*\) are not those of type ledger_valued_columns/),
      ]));
      expect(found).toHaveLength(4);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
