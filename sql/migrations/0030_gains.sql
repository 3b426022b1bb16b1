-- Capital gains: what `tradeledger gains` computed, kept for analysts (docs/gains.md).
--
--   gains_runs      one row per run: rules, tax year, fiat, zone, account, pools, period
--   gains_matches   one row per matched part of a disposal (gains.csv is a query over it)
--   gains_holdings  what was still held at the end of the run: open lots, or pools
--   gains_income    income and expenses that are not disposals (income.csv)
--   gains_problems  data-quality notes of a run (unpriced rows, deposits without a known cost ...)
--
-- Refs are ledger row keys 'source|source_id|leg' (the ledger view's columns); the view
-- gains_match_rows unnests them, so a match joins back to the ledger and its raw records.
-- A rerun with the same parameters replaces the earlier run (ON DELETE CASCADE).

CREATE TABLE gains_runs (
  run_id      bigserial   PRIMARY KEY,
  rules       text        NOT NULL,
  tax_year    integer     NOT NULL,
  fiat        text        NOT NULL,
  tz          text        NOT NULL,
  account     text        NOT NULL DEFAULT '',
  pools       text        NOT NULL,
  period_from date        NOT NULL,
  period_to   date        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (rules, tax_year, fiat, tz, account, pools)
);

CREATE TABLE gains_matches (
  run_id           bigint  NOT NULL REFERENCES gains_runs (run_id) ON DELETE CASCADE,
  seq              integer NOT NULL,
  asset            text    NOT NULL,
  quantity         numeric NOT NULL,
  acquired_day     date,
  disposed_day     date    NOT NULL,
  disposed_at      timestamptz NOT NULL,
  proceeds         numeric NOT NULL,
  cost             numeric NOT NULL,
  gain             numeric NOT NULL,
  holding_days     integer,
  basis            text    NOT NULL,
  class            text    NOT NULL,
  pool             text    NOT NULL,
  disposal_refs    text[]  NOT NULL,
  acquisition_refs text[]  NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE gains_holdings (
  run_id       bigint  NOT NULL REFERENCES gains_runs (run_id) ON DELETE CASCADE,
  seq          integer NOT NULL,
  asset        text    NOT NULL,
  pool         text    NOT NULL,
  quantity     numeric NOT NULL,
  cost         numeric NOT NULL,
  acquired_day date,
  refs         text[]  NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE gains_income (
  run_id   bigint  NOT NULL REFERENCES gains_runs (run_id) ON DELETE CASCADE,
  seq      integer NOT NULL,
  category text    NOT NULL,
  asset    text    NOT NULL,
  quantity numeric NOT NULL,
  value    numeric,
  ts       timestamptz NOT NULL,
  day      date    NOT NULL,
  pool     text    NOT NULL,
  ref      text    NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE gains_problems (
  run_id  bigint NOT NULL REFERENCES gains_runs (run_id) ON DELETE CASCADE,
  seq     integer NOT NULL,
  problem text   NOT NULL,
  ref     text   NOT NULL,
  detail  text   NOT NULL,
  PRIMARY KEY (run_id, seq)
);

-- Every ledger row behind a match, one row per (match, side, ledger key).
CREATE VIEW gains_match_rows AS
SELECT m.run_id, m.seq, s.side, split_part(s.ref, '|', 1) AS source, split_part(s.ref, '|', 2) AS source_id,
       split_part(s.ref, '|', 3) AS leg
FROM gains_matches m
CROSS JOIN LATERAL (
  SELECT 'disposal' AS side, r AS ref FROM unnest(m.disposal_refs) r
  UNION ALL
  SELECT 'acquisition', r FROM unnest(m.acquisition_refs) r WHERE r LIKE '%|%'
) s;

COMMENT ON VIEW gains_match_rows IS 'The ledger rows (source, source_id, leg) behind each gains match; join to ledger and the source tables (docs/gains.md).';
