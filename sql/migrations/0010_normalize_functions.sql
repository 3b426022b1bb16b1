-- Small pure functions the ledger views and report queries share. They map the exchange's several
-- spellings of one value to one spelling, so every view and report agrees. All are IMMUTABLE
-- one-line SQL functions, which PostgreSQL inlines: they cost nothing per row.

-- Record status, one spelling per meaning:
--   partially_fill, partially_filled         -> partially_filled
--   canceled, cancelled                      -> cancelled
--   success, successful, Successful         -> success
--   fail, failed, Failed                     -> failed
--   pending, processing, Processing         -> pending
--   reject                                   -> rejected
-- Anything else comes back lower-cased, so an unknown value still shows up in reports as itself.
CREATE FUNCTION norm_status(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lower(s)
    WHEN 'partially_fill' THEN 'partially_filled'
    WHEN 'canceled' THEN 'cancelled'
    WHEN 'successful' THEN 'success'
    WHEN 'fail' THEN 'failed'
    WHEN 'processing' THEN 'pending'
    WHEN 'reject' THEN 'rejected'
    ELSE lower(s)
  END
$$;

-- Order side: the spec's `systemRepay-selll` (three l) becomes `systemRepay-sell`; Buy/Sell are
-- lower-cased.
CREATE FUNCTION norm_side(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s = 'systemRepay-selll' THEN 'systemRepay-sell'
              WHEN lower(s) IN ('buy', 'sell') THEN lower(s)
              ELSE s END
$$;

-- Deposit and withdrawal destination: `internal` and `internal_transfer` are one thing.
CREATE FUNCTION norm_dest(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN lower(s) IN ('internal', 'internal_transfer') THEN 'internal' ELSE lower(s) END
$$;

-- The wallet name of a futures product type, spelled like the E19 account types:
-- USDT-FUTURES -> usdt_futures, SUSDT-FUTURES (demo) -> susdt_futures.
CREATE FUNCTION futures_wallet(product_type text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(replace(product_type, '-', '_'))
$$;

-- An amount as exact text for CSVs: trailing zeros trimmed, never exponent notation
-- (numeric::text never uses it). 1.2300 -> '1.23', 0.000000089 -> '0.000000089', NULL -> NULL.
CREATE FUNCTION money_text(x numeric) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT trim_scale(x)::text
$$;

-- Quote coins, for splitting a spot symbol (BTCUSDT) into base and quote: the longest quote coin
-- that ends the symbol wins. Spot fills carry only the symbol. An analyst can add a coin with
-- INSERT INTO quote_coins VALUES ('XYZ'); symbols that match none are listed in data_quality.
CREATE TABLE quote_coins (coin text PRIMARY KEY);
INSERT INTO quote_coins (coin) VALUES
  ('USDT'), ('USDC'), ('USDE'), ('FDUSD'), ('TUSD'), ('DAI'), ('USD'), ('BTC'), ('ETH'), ('BGB'),
  ('EUR'), ('GBP'), ('BRL'), ('TRY'), ('JPY'), ('AUD'), ('PLN'), ('UAH'), ('ARS'), ('MXN'),
  ('SUSDT'), ('SUSDC'), ('SBTC'), ('SETH');
