-- History tables: one per resource the exchange pages through.
--
-- Every table keeps the record exactly as received (`raw`), typed columns beside it, and the
-- data-quality problems found while typing it (`problems`, empty when clean). Enum values stay in
-- their raw exchange spelling (`partially_fill`, `canceled`, `systemRepay-selll`); the views
-- in later migrations map them to one spelling. Amounts are `numeric`, never floats. A typed
-- column is NULL when the raw value could not be parsed; `problems` then says why.
--
-- Natural keys are per account: the same order id under two accounts is two rows.
-- `first_seen_at` is when the sync first stored the row, `updated_at` when its raw record last
-- changed (a status change, a later fill), `seen_run_id` the sync run that last saw it.

CREATE TABLE spot_orders (
  account_uid        text        NOT NULL,
  order_id           text        NOT NULL,
  client_oid         text,
  symbol             text,
  side               text,
  order_type         text,
  status             text,
  price              numeric,
  size               numeric,
  price_avg          numeric,
  base_volume        numeric,
  quote_volume       numeric,
  enter_point_source text,
  order_source       text,
  cancel_reason      text,
  fee_detail         text,
  c_time             timestamptz,
  u_time             timestamptz,
  raw                jsonb       NOT NULL,
  problems           text[]      NOT NULL DEFAULT '{}',
  first_seen_at      timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  seen_run_id        bigint,
  PRIMARY KEY (account_uid, order_id)
);
CREATE INDEX spot_orders_c_time ON spot_orders (c_time);

CREATE TABLE spot_fills (
  account_uid   text        NOT NULL,
  trade_id      text        NOT NULL,
  order_id      text,
  symbol        text,
  side          text,
  order_type    text,
  trade_scope   text,
  price_avg     numeric,
  size          numeric,
  amount        numeric,
  fee_detail    jsonb,
  c_time        timestamptz,
  u_time        timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, trade_id)
);
CREATE INDEX spot_fills_c_time ON spot_fills (c_time);
CREATE INDEX spot_fills_order ON spot_fills (account_uid, order_id);

CREATE TABLE spot_bills (
  account_uid   text        NOT NULL,
  bill_id       text        NOT NULL,
  coin          text,
  group_type    text,
  business_type text,
  size          numeric,
  balance       numeric,
  fees          numeric,
  c_time        timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, bill_id)
);
CREATE INDEX spot_bills_c_time ON spot_bills (c_time);

-- E5 / tax margin-record. margin_type is the request partition: 'crossed' or 'isolated'.
CREATE TABLE margin_records (
  account_uid     text        NOT NULL,
  margin_type     text        NOT NULL,
  id              text        NOT NULL,
  coin            text,
  symbol          text,
  margin_tax_type text,
  amount          numeric,
  fee             numeric,
  total           numeric,
  ts              timestamptz,
  raw             jsonb       NOT NULL,
  problems        text[]      NOT NULL DEFAULT '{}',
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  seen_run_id     bigint,
  PRIMARY KEY (account_uid, margin_type, id)
);
CREATE INDEX margin_records_ts ON margin_records (ts);

-- E13 cross-margin current orders.
CREATE TABLE cross_margin_orders (
  account_uid        text        NOT NULL,
  order_id           text        NOT NULL,
  client_oid         text,
  symbol             text,
  side               text,
  order_type         text,
  force              text,
  status             text,
  loan_type          text,
  price              numeric,
  price_avg          numeric,
  size               numeric,
  amount             numeric,
  base_size          numeric,
  quote_size         numeric,
  enter_point_source text,
  c_time             timestamptz,
  u_time             timestamptz,
  raw                jsonb       NOT NULL,
  problems           text[]      NOT NULL DEFAULT '{}',
  first_seen_at      timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  seen_run_id        bigint,
  PRIMARY KEY (account_uid, order_id)
);

-- E21 futures history orders, one partition per product type.
CREATE TABLE futures_orders (
  account_uid              text        NOT NULL,
  product_type             text        NOT NULL,
  order_id                 text        NOT NULL,
  client_oid               text,
  symbol                   text,
  side                     text,
  trade_side               text,
  pos_side                 text,
  pos_mode                 text,
  margin_mode              text,
  margin_coin              text,
  order_type               text,
  order_source             text,
  force                    text,
  reduce_only              text,
  status                   text,
  price                    numeric,
  price_avg                numeric,
  size                     numeric,
  base_volume              numeric,
  quote_volume             numeric,
  fee                      numeric,
  total_profits            numeric,
  leverage                 numeric,
  preset_stop_surplus_price numeric,
  preset_stop_loss_price   numeric,
  enter_point_source       text,
  c_time                   timestamptz,
  u_time                   timestamptz,
  raw                      jsonb       NOT NULL,
  problems                 text[]      NOT NULL DEFAULT '{}',
  first_seen_at            timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now(),
  seen_run_id              bigint,
  PRIMARY KEY (account_uid, product_type, order_id)
);
CREATE INDEX futures_orders_c_time ON futures_orders (c_time);

CREATE TABLE futures_fills (
  account_uid        text        NOT NULL,
  product_type       text        NOT NULL,
  trade_id           text        NOT NULL,
  order_id           text,
  symbol             text,
  side               text,
  trade_side         text,
  pos_mode           text,
  trade_scope        text,
  margin_coin        text,
  margin_mode        text,
  price              numeric,
  base_volume        numeric,
  quote_volume       numeric,
  profit             numeric,
  fee_detail         jsonb,
  enter_point_source text,
  c_time             timestamptz,
  raw                jsonb       NOT NULL,
  problems           text[]      NOT NULL DEFAULT '{}',
  first_seen_at      timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  seen_run_id        bigint,
  PRIMARY KEY (account_uid, product_type, trade_id)
);
CREATE INDEX futures_fills_c_time ON futures_fills (c_time);

-- X6 futures account bills: funding fees (contract_settle_fee), realized PnL (close_long/short), fees.
CREATE TABLE futures_bills (
  account_uid   text        NOT NULL,
  product_type  text        NOT NULL,
  bill_id       text        NOT NULL,
  symbol        text,
  coin          text,
  business_type text,
  amount        numeric,
  fee           numeric,
  fee_by_coupon numeric,
  balance       numeric,
  c_time        timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, product_type, bill_id)
);
CREATE INDEX futures_bills_c_time ON futures_bills (c_time);

-- E11 pending trigger orders. They vanish from the endpoint once triggered or cancelled;
-- last_seen_at tells which are still pending as of the latest sync.
CREATE TABLE plan_orders (
  account_uid     text        NOT NULL,
  product_type    text        NOT NULL,
  order_id        text        NOT NULL,
  plan_type       text,
  client_oid      text,
  symbol          text,
  side            text,
  trade_side      text,
  pos_side        text,
  pos_mode        text,
  margin_mode     text,
  margin_coin     text,
  order_type      text,
  order_source    text,
  plan_status     text,
  trigger_type    text,
  size            numeric,
  price           numeric,
  execute_price   numeric,
  trigger_price   numeric,
  callback_ratio  numeric,
  c_time          timestamptz,
  u_time          timestamptz,
  last_seen_at    timestamptz NOT NULL DEFAULT now(),
  raw             jsonb       NOT NULL,
  problems        text[]      NOT NULL DEFAULT '{}',
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  seen_run_id     bigint,
  PRIMARY KEY (account_uid, product_type, order_id)
);

-- E20. dest is kept raw: 'on_chain', 'internal' or 'internal_transfer'.
CREATE TABLE deposits (
  account_uid   text        NOT NULL,
  order_id      text        NOT NULL,
  trade_id      text,
  coin          text,
  type          text,
  dest          text,
  chain         text,
  status        text,
  size          numeric,
  from_address  text,
  to_address    text,
  c_time        timestamptz,
  u_time        timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, order_id)
);
CREATE INDEX deposits_c_time ON deposits (c_time);

CREATE TABLE withdrawals (
  account_uid   text        NOT NULL,
  order_id      text        NOT NULL,
  trade_id      text,
  client_oid    text,
  coin          text,
  type          text,
  dest          text,
  chain         text,
  tag           text,
  status        text,
  size          numeric,
  fee           numeric,
  confirm       text,
  from_address  text,
  to_address    text,
  c_time        timestamptz,
  u_time        timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, order_id)
);
CREATE INDEX withdrawals_c_time ON withdrawals (c_time);

-- E19 main/sub transfers, stored under the initiating account (the endpoint shows only those).
CREATE TABLE transfers (
  account_uid   text        NOT NULL,
  transfer_id   text        NOT NULL,
  client_oid    text,
  coin          text,
  status        text,
  from_type     text,
  to_type       text,
  from_user_id  text,
  to_user_id    text,
  size          numeric,
  ts            timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, transfer_id)
);
CREATE INDEX transfers_ts ON transfers (ts);

CREATE TABLE tax_spot_records (
  account_uid   text        NOT NULL,
  id            text        NOT NULL,
  coin          text,
  spot_tax_type text,
  amount        numeric,
  fee           numeric,
  total         numeric,
  ts            timestamptz,
  raw           jsonb       NOT NULL,
  problems      text[]      NOT NULL DEFAULT '{}',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  seen_run_id   bigint,
  PRIMARY KEY (account_uid, id)
);

CREATE TABLE tax_future_records (
  account_uid     text        NOT NULL,
  id              text        NOT NULL,
  symbol          text,
  margin_coin     text,
  future_tax_type text,
  amount          numeric,
  fee             numeric,
  ts              timestamptz,
  raw             jsonb       NOT NULL,
  problems        text[]      NOT NULL DEFAULT '{}',
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  seen_run_id     bigint,
  PRIMARY KEY (account_uid, id)
);

-- One row per coin actually paid, derived from feeDetail by src/normalize at load time.
-- Sign convention: see src/normalize/README.md (paid > 0 means the coin left the account).
-- source is the table the fee came from ('spot_orders', 'spot_fills', 'futures_fills');
-- seq numbers the rows of one record. Rows are replaced whenever their source row changes.
CREATE TABLE fees (
  account_uid              text    NOT NULL,
  source                   text    NOT NULL,
  source_id                text    NOT NULL,
  seq                      int     NOT NULL,
  coin                     text    NOT NULL,
  paid                     numeric NOT NULL,
  platform_deducted        numeric,
  coupon_covered           numeric,
  payable_in_received_coin numeric,
  format                   text    NOT NULL,
  rebate                   boolean NOT NULL DEFAULT false,
  c_time                   timestamptz,
  PRIMARY KEY (account_uid, source, source_id, seq)
);
CREATE INDEX fees_c_time ON fees (c_time);
