-- form-8949.csv: the rows of IRS Form 8949 from a `tradeledger gains --rules us` run. Part I is
-- short term (held one year or less), Part II long term. Digital assets use boxes G/H/I (Part I)
-- and J/K/L (Part II): G/J basis reported on Form 1099-DA, H/K 1099-DA without basis, I/L no
-- 1099-DA. We cannot know what a broker reported, so every row is I or L unless the caller
-- passes box_short/box_long (docs/gains.md).
-- Parameters (psql: -v run_id=1 -v box_short=I -v box_long=L)
-- Columns: part, box, description (a), date_acquired (b, MM/DD/YYYY or VARIOUS), date_sold (c),
--   proceeds (d), cost (e), code (f), adjustment (g), gain_or_loss (h), pool
SELECT CASE WHEN m.class = 'long' THEN 'II' ELSE 'I' END AS part,
       CASE WHEN m.class = 'long' THEN :'box_long' ELSE :'box_short' END AS box,
       money_text(m.quantity) || ' ' || m.asset AS description,
       coalesce(to_char(m.acquired_day, 'MM/DD/YYYY'), 'VARIOUS') AS date_acquired,
       to_char(m.disposed_day, 'MM/DD/YYYY') AS date_sold,
       to_char(round(m.proceeds, 2), 'FM999999999999990.00') AS proceeds,
       to_char(round(m.cost, 2), 'FM999999999999990.00') AS cost,
       '' AS code, '' AS adjustment,
       to_char(round(m.proceeds, 2) - round(m.cost, 2), 'FM999999999999990.00') AS gain_or_loss,
       m.pool
FROM gains_matches m
WHERE m.run_id = (:'run_id')::bigint
ORDER BY CASE WHEN m.class = 'long' THEN 2 ELSE 1 END, m.seq;
