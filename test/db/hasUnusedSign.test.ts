import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

// sql/0054 rewrote has_unused_sign as one inlinable expression; it must answer as sql/0017's
// EXISTS over unnest did, for every shape of problems array.
describe('has_unused_sign (sql/0054) answers as sql/0017 did', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase();
    await sql`CREATE FUNCTION has_unused_sign_0017(problems text[]) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
      SELECT EXISTS (SELECT 1 FROM unnest(problems) p WHERE p LIKE '%a sign the API never uses for this field%') $$`.execute(fresh.db);
  });
  afterAll(async () => { await fresh?.drop(); });

  it('on NULL, empty, NULL elements, other problems, the phrase alone, inside text, split across two elements', async () => {
    const phrase = 'size -1: a sign the API never uses for this field';
    const cases: (string | null)[][] = [
      [], [null], ['price: not a decimal'], [phrase], ['x', phrase], [null, phrase, null],
      // The phrase cut in two: no single element holds it, so neither version may match.
      ['size -1: a sign the API ', 'never uses for this field'],
      ['A SIGN THE API NEVER USES FOR THIS FIELD'],
    ];
    const answers: { old: boolean; now: boolean }[] = [];
    for (const c of [null, ...cases]) {
      const r = await sql<{ old: boolean; now: boolean }>`SELECT has_unused_sign_0017(${c}::text[]) AS old, has_unused_sign(${c}::text[]) AS now`.execute(fresh.db);
      answers.push(r.rows[0]!);
    }
    const rows = { rows: answers };
    expect(rows.rows.map((r) => r.now)).toEqual(rows.rows.map((r) => r.old));
    expect(rows.rows.map((r) => r.now)).toEqual([false, false, false, false, true, true, true, false, false]);
  });

  it('is inlined: the ledger view no longer calls a function per row', async () => {
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (VERBOSE) SELECT * FROM ledger`.execute(fresh.db);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).not.toContain('has_unused_sign');
  });
});
