-- form-8949.csv: the rows of IRS Form 8949 from a `tradeledger gains --rules us` run. Part I is
-- short term (held one year or less), Part II long term. The box follows how the broker reported
-- the sale, set per account in the config ("form1099DA": "basis-reported", "basis-not-reported"
-- or "none"; docs/gains.md). From tax year 2025 digital assets have boxes of their own: G/J basis
-- reported to the IRS on Form 1099-DA, H/K a 1099-DA without basis, I/L no 1099-DA (IRS Form 8949
-- instructions 2025: "Do not use boxes C or F for digital assets"; Form 1099-DA instructions,
-- "Applicable checkbox on Form 8949", codes G, H, J, K). Before 2025 the form had no such boxes:
-- A/D, B/E, C/F by the same pattern (Form 1099-B). A row of the one universal pool (US before
-- 2025, pool *) or of an account the config does not describe counts as "none".
-- Parameters (psql: -v run_id=1 -v broker_reporting='{"1234":"basis-reported"}')
-- Columns: part, box, description (a), date_acquired (b, MM/DD/YYYY or VARIOUS), date_sold (c),
--   proceeds (d), cost (e), code (f), adjustment (g), gain_or_loss (h), pool
WITH reporting AS (
  SELECT key AS account, value AS how FROM json_each_text(nullif(:'broker_reporting', '')::json)
), rows AS (
  SELECT m.*, r.tax_year, coalesce(rep.how, 'none') AS how, m.class = 'long' AS long
  FROM gains_matches m
  JOIN gains_runs r ON r.run_id = m.run_id
  LEFT JOIN reporting rep ON rep.account = split_part(m.pool, ':', 1)
  WHERE m.run_id = (:'run_id')::bigint
)
SELECT CASE WHEN long THEN 'II' ELSE 'I' END AS part,
       substr(CASE WHEN tax_year >= 2025 THEN (CASE WHEN long THEN 'JKL' ELSE 'GHI' END) ELSE (CASE WHEN long THEN 'DEF' ELSE 'ABC' END) END,
              CASE how WHEN 'basis-reported' THEN 1 WHEN 'basis-not-reported' THEN 2 ELSE 3 END, 1) AS box,
       money_text(quantity) || ' ' || asset AS description,
       coalesce(to_char(acquired_day, 'MM/DD/YYYY'), 'VARIOUS') AS date_acquired,
       to_char(disposed_day, 'MM/DD/YYYY') AS date_sold,
       to_char(round(proceeds, 2), 'FM999999999999990.00') AS proceeds,
       to_char(round(cost, 2), 'FM999999999999990.00') AS cost,
       '' AS code, '' AS adjustment,
       to_char(round(proceeds, 2) - round(cost, 2), 'FM999999999999990.00') AS gain_or_loss,
       pool
FROM rows
ORDER BY CASE WHEN long THEN 2 ELSE 1 END, seq;
