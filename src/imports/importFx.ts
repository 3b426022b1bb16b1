import type { Kysely } from 'kysely';
import { withTransaction } from '../db/withTransaction.js';
import type { FileSource } from './fileSource.js';
import { ecbRates } from './ecbRates.js';

/** What an FX import did. `already` is set when this very file was imported before. */
export interface FxImportResult {
  readonly rates: number;
  readonly inserted: number;
  readonly updated: number;
  readonly currencies: number;
  readonly firstDay: string | null;
  readonly lastDay: string | null;
  readonly already: { readonly importedAt: string } | null;
}

// A day past the file's last rate keeps the last rate for this long (the rule of
// docs/valuation.md); a newer file extends it.
const CARRY_DAYS = 400;

/**
 * Imports an ECB euro reference rates file: checks all of it first (nothing is stored when any
 * line is bad), then in one transaction stores the rates and rebuilds fx_rates_daily (every
 * calendar day, the last earlier rate where a day has none). The same file again changes nothing.
 *
 * @example
 * const r = await importFx(db, await fileSource('eurofxref-hist.csv')); // r.inserted === 205812
 */
export async function importFx(db: Kysely<any>, src: FileSource, now = new Date()): Promise<FxImportResult> {
  const rates = ecbRates(src.name, src.text, now);
  const days = rates.map((r) => r.day).sort();
  const base = { rates: rates.length, currencies: new Set(rates.map((r) => r.currency)).size, firstDay: days[0] ?? null, lastDay: days.at(-1) ?? null };
  return withTransaction(db, async ({ client }) => {
    const file = await client.query<{ imported_at: Date }>(
      `INSERT INTO imported_files (sha256, kind, file_name, rows) VALUES ($1, 'fx', $2, $3)
       ON CONFLICT (sha256) DO NOTHING RETURNING imported_at`, [src.sha256, src.name, rates.length]);
    if (file.rowCount === 0) {
      const before = await client.query<{ imported_at: Date }>('SELECT imported_at FROM imported_files WHERE sha256 = $1', [src.sha256]);
      return { ...base, inserted: 0, updated: 0, already: { importedAt: before.rows[0]!.imported_at.toISOString() } };
    }
    let inserted = 0;
    let updated = 0;
    for (let i = 0; i < rates.length; i += 20_000) {
      const chunk = rates.slice(i, i + 20_000);
      const r = await client.query<{ inserted: boolean }>(
        `INSERT INTO fx_rates (currency, day, per_eur, file_sha256, line)
         SELECT c, d::date, p::numeric, $4, l FROM unnest($1::text[], $2::text[], $3::text[], $5::int[]) AS u(c, d, p, l)
         ON CONFLICT (currency, day) DO UPDATE SET per_eur = excluded.per_eur, file_sha256 = excluded.file_sha256, line = excluded.line
         WHERE fx_rates.per_eur <> excluded.per_eur
         RETURNING (xmax = 0) AS inserted`,
        [chunk.map((x) => x.currency), chunk.map((x) => x.day), chunk.map((x) => x.perEur), src.sha256, chunk.map((x) => x.line)]);
      for (const row of r.rows) row.inserted ? inserted++ : updated++;
    }
    if (inserted + updated > 0) await rebuildDaily(client);
    return { ...base, inserted, updated, already: null };
  });
}

async function rebuildDaily(client: { query: (sql: string) => Promise<unknown> }): Promise<void> {
  await client.query('DELETE FROM fx_rates_daily');
  // Per currency, every day from its first rate to CARRY_DAYS past the last rate (or today):
  // a window over the days gives each day the last earlier rate.
  await client.query(`
    INSERT INTO fx_rates_daily (currency, day, per_eur, rate_day)
    WITH span AS (
      SELECT currency, min(day) AS first_day FROM fx_rates GROUP BY currency
    ), last_day AS (
      SELECT greatest(max(day), current_date) + ${CARRY_DAYS} AS day FROM fx_rates
    ), grid AS (
      SELECT s.currency, g.day::date AS day, r.per_eur, r.day AS rate_day
      FROM span s CROSS JOIN last_day
      CROSS JOIN LATERAL generate_series(s.first_day, last_day.day, interval '1 day') AS g(day)
      LEFT JOIN fx_rates r ON r.currency = s.currency AND r.day = g.day::date
    ), grouped AS (
      SELECT grid.*, count(rate_day) OVER (PARTITION BY currency ORDER BY day) AS grp FROM grid
    )
    SELECT currency, day, first_value(per_eur) OVER w, first_value(rate_day) OVER w
    FROM grouped WINDOW w AS (PARTITION BY currency, grp ORDER BY day)`);
  // EUR per EUR is 1 on every day any rate covers, dated like that day's latest ECB fixing.
  await client.query(`
    INSERT INTO fx_rates_daily (currency, day, per_eur, rate_day)
    SELECT 'EUR', day, 1, max(rate_day) FROM fx_rates_daily GROUP BY day
    ON CONFLICT (currency, day) DO NOTHING`);
  // Units per USD, so valuing in a fiat multiplies instead of dividing per ledger row (sql/0027).
  await client.query(`
    UPDATE fx_rates_daily f SET per_usd = f.per_eur / u.per_eur, usd_rate_day = u.rate_day
    FROM fx_rates_daily u WHERE u.currency = 'USD' AND u.day = f.day`);
}
