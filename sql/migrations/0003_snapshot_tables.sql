-- Snapshot tables: state that the exchange only shows "as of now". Every sync run stores a
-- fresh copy stamped with snapshot_at, so year-end balances and positions can be reported later.

CREATE TABLE futures_account_snapshots (
  snapshot_at             timestamptz NOT NULL,
  account_uid             text        NOT NULL,
  product_type            text        NOT NULL,
  margin_coin             text        NOT NULL,
  available               numeric,
  locked                  numeric,
  account_equity          numeric,
  usdt_equity             numeric,
  unrealized_pl           numeric,
  asset_mode              text,
  raw                     jsonb       NOT NULL,
  problems                text[]      NOT NULL DEFAULT '{}',
  run_id                  bigint,
  PRIMARY KEY (account_uid, product_type, margin_coin, snapshot_at)
);

CREATE TABLE position_snapshots (
  snapshot_at      timestamptz NOT NULL,
  account_uid      text        NOT NULL,
  product_type     text        NOT NULL,
  symbol           text        NOT NULL,
  margin_coin      text        NOT NULL,
  hold_side        text        NOT NULL,
  margin_mode      text        NOT NULL,
  total            numeric,
  available        numeric,
  locked           numeric,
  open_price_avg   numeric,
  achieved_profits numeric,
  unrealized_pl    numeric,
  total_fee        numeric,
  leverage         numeric,
  pos_mode         text,
  raw              jsonb       NOT NULL,
  problems         text[]      NOT NULL DEFAULT '{}',
  run_id           bigint,
  PRIMARY KEY (account_uid, product_type, symbol, margin_coin, hold_side, margin_mode, snapshot_at)
);

-- E10. Never holds a secret: the listing has none.
CREATE TABLE sub_account_snapshots (
  snapshot_at      timestamptz NOT NULL,
  main_uid         text        NOT NULL,
  sub_account_uid  text        NOT NULL,
  sub_account_name text,
  status           text,
  label            text,
  perm_list        text[],
  raw              jsonb       NOT NULL,
  run_id           bigint,
  PRIMARY KEY (main_uid, sub_account_uid, snapshot_at)
);

-- E8. The listing carries no secret; a secretKey field, if one ever appeared, is dropped before
-- storing (the loader removes it from raw too).
CREATE TABLE sub_account_api_key_snapshots (
  snapshot_at     timestamptz NOT NULL,
  main_uid        text        NOT NULL,
  sub_account_uid text        NOT NULL,
  api_key         text        NOT NULL,
  label           text,
  perm_list       text[],
  ip_list         text[],
  raw             jsonb       NOT NULL,
  run_id          bigint,
  PRIMARY KEY (sub_account_uid, api_key, snapshot_at)
);

-- E2 demo contract configuration.
CREATE TABLE contract_snapshots (
  snapshot_at  timestamptz NOT NULL,
  product_type text        NOT NULL,
  symbol       text        NOT NULL,
  raw          jsonb       NOT NULL,
  run_id       bigint,
  PRIMARY KEY (product_type, symbol, snapshot_at)
);
