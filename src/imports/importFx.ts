import type { Kysely } from 'kysely';
import type pg from 'pg';
import { withTransaction } from '../db/withTransaction.js';
import type { FileSource } from './fileSource.js';
import { wholeText } from './fileText.js';
import { ecbRates } from './ecbRates.js';

/**
 * What an FX import did, and the rates in force after it. `already` is set when this very file
 * was imported before (its rates are applied again all the same).
 */
export interface FxImportResult {
  readonly rates: number;
  readonly inserted: number;
  /** The file's rates that replaced a different rate for the same currency and day. */
  readonly updated: number;
  readonly currencies: number;
  readonly firstDay: string | null;
  readonly lastDay: string | null;
  readonly already: { readonly importedAt: string } | null;
  /** fx_rates after the import: every rate in force, how many of them outside this file's days, and the latest per currency. */
  readonly inForce: {
    readonly rates: number;
    readonly currencies: number;
    readonly firstDay: string | null;
    readonly lastDay: string | null;
    readonly fromOtherFiles: number;
    readonly latest: readonly { readonly currency: string; readonly day: string; readonly perEur: string }[];
  };
}

// A day past the file's last rate keeps the last rate for this long (the rule of
// docs/valuation.md); a newer file extends it.
const CARRY_DAYS = 400;

/**
 * Imports an ECB euro reference rates file: checks all of it first (nothing is stored when any
 * line is bad), then in one transaction stores the rates and rebuilds fx_rates_daily (every
 * calendar day, the last earlier rate where a day has none). Every rate the file holds is in
 * force afterwards: importing an older file again restores its rates where a later file changed
 * them; the same file twice changes nothing. The result states the rates in force.
 *
 * @example
 * const r = await importFx(db, await fileSource('eurofxref-hist.csv')); // r.inserted === 205812
 */
export async function importFx(db: Kysely<any>, src: FileSource, now = new Date()): Promise<FxImportResult> {
  const { text, sha256 } = await wholeText(src);
  const rates = ecbRates(src.name, text, now);
  const days = rates.map((r) => r.day).sort();
  const base = { rates: rates.length, currencies: new Set(rates.map((r) => r.currency)).size, firstDay: days[0] ?? null, lastDay: days.at(-1) ?? null };
  return withTransaction(db, async ({ client }) => {
    const before = await client.query<{ imported_at: Date }>('SELECT imported_at FROM imported_files WHERE sha256 = $1', [sha256]);
    await client.query(`INSERT INTO imported_files (sha256, kind, file_name, rows) VALUES ($1, 'fx', $2, $3)
       ON CONFLICT (sha256) DO NOTHING`, [sha256, src.name, rates.length]);
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
        [chunk.map((x) => x.currency), chunk.map((x) => x.day), chunk.map((x) => x.perEur), sha256, chunk.map((x) => x.line)]);
      for (const row of r.rows) row.inserted ? inserted++ : updated++;
    }
    if (inserted + updated > 0) await rebuildDaily(client);
    const already = before.rows[0] ? { importedAt: before.rows[0].imported_at.toISOString() } : null;
    return { ...base, inserted, updated, already, inForce: await ratesInForce(client, rates.length) };
  });
}

async function ratesInForce(client: pg.PoolClient, fileRates: number): Promise<FxImportResult['inForce']> {
  const all = await client.query<{ rates: string; currencies: string; first_day: string | null; last_day: string | null }>(
    'SELECT count(*) AS rates, count(DISTINCT currency) AS currencies, min(day)::text AS first_day, max(day)::text AS last_day FROM fx_rates');
  const latest = await client.query<{ currency: string; day: string; per_eur: string }>(
    `SELECT DISTINCT ON (currency) currency, day::text AS day, per_eur::text AS per_eur FROM fx_rates ORDER BY currency, day DESC`);
  const a = all.rows[0]!;
  // Every rate of the file is in force now (it was just written where it differed), so the rest
  // came from other files: days or currencies this file does not hold.
  return {
    rates: Number(a.rates), currencies: Number(a.currencies), firstDay: a.first_day, lastDay: a.last_day,
    fromOtherFiles: Number(a.rates) - fileRates,
    latest: latest.rows.map((r) => ({ currency: r.currency, day: r.day, perEur: r.per_eur })),
  };
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
  // Units per USD, so valuing in a fiat multiplies instead of dividing per ledger row (sql/schema/functions/ledger_valued.sql).
  await client.query(`
    UPDATE fx_rates_daily f SET per_usd = f.per_eur / u.per_eur, usd_rate_day = u.rate_day
    FROM fx_rates_daily u WHERE u.currency = 'USD' AND u.day = f.day`);
}
