-- Every column an analyst (or operator) reads gets a COMMENT, so that \d+ in psql and the
-- generated data dictionary (docs/schema.md, npm run schema) say what it holds: before this, 15
-- of about 710 columns had one. Issue 25: "Every column an analyst uses has a COMMENT".
--
-- The raw tables' typed columns name the API field they are read from (the column kinds in each
-- src/extract/streams/*.ts file); the bookkeeping columns every history table shares (raw,
-- problems, first_seen_at, updated_at, seen_run_id) and every snapshot table shares
-- (snapshot_at, run_id) say the same thing in each. test/db/columnComments.test.ts fails when a
-- column of a table, view or table function of the public schema has no comment.
--
-- Comments only (and two documentation types): no data and no query plan changes.

-- spot_orders: X1 /api/v2/spot/trade/history-orders
COMMENT ON TABLE spot_orders IS 'X1 /api/v2/spot/trade/history-orders: one row per spot order. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN spot_orders.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN spot_orders.order_id IS 'the order id; API field orderId';
COMMENT ON COLUMN spot_orders.client_oid IS 'the client order id given when the order was placed; API field clientOid';
COMMENT ON COLUMN spot_orders.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN spot_orders.side IS 'buy or sell, as the exchange spells it (norm_side() lower-cases); API field side';
COMMENT ON COLUMN spot_orders.order_type IS 'limit or market; API field orderType';
COMMENT ON COLUMN spot_orders.status IS 'the record''s status as the exchange sent it (norm_status() normalises it); API field status';
COMMENT ON COLUMN spot_orders.price IS 'the order''s limit price (0 or empty for a market order); API field price';
COMMENT ON COLUMN spot_orders.size IS 'the ordered quantity (base coin; quote coin for a market buy); API field size';
COMMENT ON COLUMN spot_orders.price_avg IS 'the average fill price; API field priceAvg';
COMMENT ON COLUMN spot_orders.base_volume IS 'the filled quantity in the base coin; API field baseVolume';
COMMENT ON COLUMN spot_orders.quote_volume IS 'the filled value in the quote coin; API field quoteVolume';
COMMENT ON COLUMN spot_orders.enter_point_source IS 'where the order was placed (WEB, API, APP, ...); API field enterPointSource';
COMMENT ON COLUMN spot_orders.order_source IS 'how the order came about (normal, market, plan, ...); API field orderSource';
COMMENT ON COLUMN spot_orders.cancel_reason IS 'why the order was cancelled, when it was; API field cancelReason';
COMMENT ON COLUMN spot_orders.fee_detail IS 'the order''s feeDetail as sent (JSON text; the fills carry the fees the ledger uses); API field feeDetail';
COMMENT ON COLUMN spot_orders.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN spot_orders.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN spot_orders.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN spot_orders.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN spot_orders.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN spot_orders.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN spot_orders.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- spot_fills: X2 /api/v2/spot/trade/fills
COMMENT ON TABLE spot_fills IS 'X2 /api/v2/spot/trade/fills: one row per spot fill (trade). Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN spot_fills.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN spot_fills.trade_id IS 'the trade (fill) id; API field tradeId';
COMMENT ON COLUMN spot_fills.order_id IS 'the order id; API field orderId';
COMMENT ON COLUMN spot_fills.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN spot_fills.side IS 'buy or sell, as the exchange spells it (norm_side() lower-cases); API field side';
COMMENT ON COLUMN spot_fills.order_type IS 'limit or market; API field orderType';
COMMENT ON COLUMN spot_fills.trade_scope IS 'taker or maker; API field tradeScope';
COMMENT ON COLUMN spot_fills.price_avg IS 'the fill price; API field priceAvg';
COMMENT ON COLUMN spot_fills.size IS 'the filled quantity in the base coin; API field size';
COMMENT ON COLUMN spot_fills.amount IS 'the filled value in the quote coin (size x price); API field amount';
COMMENT ON COLUMN spot_fills.fee_detail IS 'the feeDetail field as sent (new or legacy form); its coins and amounts are in fees, one row per coin; API field feeDetail';
COMMENT ON COLUMN spot_fills.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN spot_fills.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN spot_fills.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN spot_fills.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN spot_fills.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN spot_fills.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN spot_fills.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- spot_bills: X4 /api/v2/spot/account/bills
COMMENT ON TABLE spot_bills IS 'X4 /api/v2/spot/account/bills: one row per spot account bill (a balance change with the balance after it). Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN spot_bills.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN spot_bills.bill_id IS 'the bill id; API field billId';
COMMENT ON COLUMN spot_bills.coin IS 'the coin; API field coin';
COMMENT ON COLUMN spot_bills.group_type IS 'the bill''s group (deposit, withdraw, transaction, transfer, other, ...); API field groupType';
COMMENT ON COLUMN spot_bills.business_type IS 'the bill''s business type, which says what moved the balance (the ledger classes it: docs/ledger.md); API field businessType';
COMMENT ON COLUMN spot_bills.size IS 'the signed change of the balance (> 0 in); API field size';
COMMENT ON COLUMN spot_bills.balance IS 'the balance of the coin in this wallet after this bill, as the exchange computed it (what reconciliation walks against); API field balance';
COMMENT ON COLUMN spot_bills.fees IS 'the fee charged with this bill (negative: paid); API field fees';
COMMENT ON COLUMN spot_bills.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN spot_bills.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN spot_bills.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN spot_bills.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN spot_bills.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN spot_bills.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- margin_records: E5 /api/v2/tax/margin-record
COMMENT ON TABLE margin_records IS 'E5 /api/v2/tax/margin-record: one row per margin tax record. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN margin_records.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN margin_records.margin_type IS 'crossed or isolated: the request partition the record came from; the ledger wallet is crossed_margin or isolated_margin';
COMMENT ON COLUMN margin_records.id IS 'the record id (unique per margin type); API field id';
COMMENT ON COLUMN margin_records.coin IS 'the coin; API field coin';
COMMENT ON COLUMN margin_records.symbol IS 'the pair, for isolated margin; API field symbol';
COMMENT ON COLUMN margin_records.margin_tax_type IS 'what the margin record is (transfer_in, borrow, repay, interest_repay, deal_in, deal_out, liquidation_fee, ...); it sets the ledger sign (docs/ledger.md); API field marginTaxType';
COMMENT ON COLUMN margin_records.amount IS 'the record''s amount (its sign is not used; the direction comes from margin_tax_type); API field amount';
COMMENT ON COLUMN margin_records.fee IS 'the fee of the record; API field fee';
COMMENT ON COLUMN margin_records.total IS 'the total the exchange reports (undocumented, spec 2.7; not used by the ledger); API field total';
COMMENT ON COLUMN margin_records.ts IS 'when the record happened (ms since epoch, stored as timestamptz); API field ts';
COMMENT ON COLUMN margin_records.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN margin_records.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN margin_records.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN margin_records.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN margin_records.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- cross_margin_orders: E13 /api/v2/margin/crossed/open-orders
COMMENT ON TABLE cross_margin_orders IS 'E13 /api/v2/margin/crossed/open-orders: one row per cross-margin order. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN cross_margin_orders.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN cross_margin_orders.order_id IS 'the order id; API field orderId';
COMMENT ON COLUMN cross_margin_orders.client_oid IS 'the client order id given when the order was placed; API field clientOid';
COMMENT ON COLUMN cross_margin_orders.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN cross_margin_orders.side IS 'buy or sell, as the exchange spells it (norm_side() lower-cases); API field side';
COMMENT ON COLUMN cross_margin_orders.order_type IS 'limit or market; API field orderType';
COMMENT ON COLUMN cross_margin_orders.force IS 'time in force (gtc, post_only, fok, ioc); API field force';
COMMENT ON COLUMN cross_margin_orders.status IS 'the record''s status as the exchange sent it (norm_status() normalises it); API field status';
COMMENT ON COLUMN cross_margin_orders.loan_type IS 'the margin loan type (normal, autoLoan, autoRepay, autoLoanAndRepay); API field loanType';
COMMENT ON COLUMN cross_margin_orders.price IS 'the order''s limit price (0 or empty for a market order); API field price';
COMMENT ON COLUMN cross_margin_orders.price_avg IS 'the average fill price; API field priceAvg';
COMMENT ON COLUMN cross_margin_orders.size IS 'the ordered quantity; API field size';
COMMENT ON COLUMN cross_margin_orders.amount IS 'the ordered value (quote coin, market buy); API field amount';
COMMENT ON COLUMN cross_margin_orders.base_size IS 'the base-coin quantity; API field baseSize';
COMMENT ON COLUMN cross_margin_orders.quote_size IS 'the quote-coin value; API field quoteSize';
COMMENT ON COLUMN cross_margin_orders.enter_point_source IS 'where the order was placed (WEB, API, APP, ...); API field enterPointSource';
COMMENT ON COLUMN cross_margin_orders.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN cross_margin_orders.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN cross_margin_orders.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN cross_margin_orders.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN cross_margin_orders.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN cross_margin_orders.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN cross_margin_orders.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- futures_orders: E21 /api/v2/mix/order/orders-history
COMMENT ON TABLE futures_orders IS 'E21 /api/v2/mix/order/orders-history: one row per futures order, per product type. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN futures_orders.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN futures_orders.product_type IS 'the futures product type the record was asked for (USDT-FUTURES, COIN-FUTURES, USDC-FUTURES; demo: SUSDT-FUTURES, ...); its ledger wallet is futures_wallet(product_type)';
COMMENT ON COLUMN futures_orders.order_id IS 'the order id; API field orderId';
COMMENT ON COLUMN futures_orders.client_oid IS 'the client order id given when the order was placed; API field clientOid';
COMMENT ON COLUMN futures_orders.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN futures_orders.side IS 'buy or sell, as the exchange spells it (norm_side() lower-cases); API field side';
COMMENT ON COLUMN futures_orders.trade_side IS 'open or close (hedge mode) or buy_single/sell_single (one-way mode); API field tradeSide';
COMMENT ON COLUMN futures_orders.pos_side IS 'the position side: long, short or net; API field posSide';
COMMENT ON COLUMN futures_orders.pos_mode IS 'the position mode: one_way_mode or hedge_mode; API field posMode';
COMMENT ON COLUMN futures_orders.margin_mode IS 'isolated or crossed; API field marginMode';
COMMENT ON COLUMN futures_orders.margin_coin IS 'the margin coin of the contract; API field marginCoin';
COMMENT ON COLUMN futures_orders.order_type IS 'limit or market; API field orderType';
COMMENT ON COLUMN futures_orders.order_source IS 'how the order came about (normal, market, plan, ...); API field orderSource';
COMMENT ON COLUMN futures_orders.force IS 'time in force (gtc, post_only, fok, ioc); API field force';
COMMENT ON COLUMN futures_orders.reduce_only IS 'YES when the order may only reduce a position; API field reduceOnly';
COMMENT ON COLUMN futures_orders.status IS 'the record''s status as the exchange sent it (norm_status() normalises it); API field status';
COMMENT ON COLUMN futures_orders.price IS 'the order''s limit price (0 or empty for a market order); API field price';
COMMENT ON COLUMN futures_orders.price_avg IS 'the average fill price; API field priceAvg';
COMMENT ON COLUMN futures_orders.size IS 'the ordered quantity (base coin); API field size';
COMMENT ON COLUMN futures_orders.base_volume IS 'the filled quantity in the base coin; API field baseVolume';
COMMENT ON COLUMN futures_orders.quote_volume IS 'the filled value in the quote coin; API field quoteVolume';
COMMENT ON COLUMN futures_orders.fee IS 'the fee paid on the order (negative: paid); API field fee';
COMMENT ON COLUMN futures_orders.total_profits IS 'the order''s realised profit; API field totalProfits';
COMMENT ON COLUMN futures_orders.leverage IS 'the leverage; API field leverage';
COMMENT ON COLUMN futures_orders.preset_stop_surplus_price IS 'the take-profit price set with the order; API field presetStopSurplusPrice';
COMMENT ON COLUMN futures_orders.preset_stop_loss_price IS 'the stop-loss price set with the order; API field presetStopLossPrice';
COMMENT ON COLUMN futures_orders.enter_point_source IS 'where the order was placed (WEB, API, APP, ...); API field enterPointSource';
COMMENT ON COLUMN futures_orders.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN futures_orders.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN futures_orders.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN futures_orders.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN futures_orders.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN futures_orders.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN futures_orders.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- futures_fills: X5 /api/v2/mix/order/fills
COMMENT ON TABLE futures_fills IS 'X5 /api/v2/mix/order/fills: one row per futures fill, per product type. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN futures_fills.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN futures_fills.product_type IS 'the futures product type the record was asked for (USDT-FUTURES, COIN-FUTURES, USDC-FUTURES; demo: SUSDT-FUTURES, ...); its ledger wallet is futures_wallet(product_type)';
COMMENT ON COLUMN futures_fills.trade_id IS 'the trade (fill) id; API field tradeId';
COMMENT ON COLUMN futures_fills.order_id IS 'the order id; API field orderId';
COMMENT ON COLUMN futures_fills.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN futures_fills.side IS 'buy or sell, as the exchange spells it (norm_side() lower-cases); API field side';
COMMENT ON COLUMN futures_fills.trade_side IS 'open or close (hedge mode) or buy_single/sell_single (one-way mode); API field tradeSide';
COMMENT ON COLUMN futures_fills.pos_mode IS 'the position mode: one_way_mode or hedge_mode; API field posMode';
COMMENT ON COLUMN futures_fills.trade_scope IS 'taker or maker; API field tradeScope';
COMMENT ON COLUMN futures_fills.margin_coin IS 'the margin coin of the contract; API field marginCoin';
COMMENT ON COLUMN futures_fills.margin_mode IS 'isolated or crossed; API field marginMode';
COMMENT ON COLUMN futures_fills.price IS 'the fill price; API field price';
COMMENT ON COLUMN futures_fills.base_volume IS 'the filled quantity (base coin); API field baseVolume';
COMMENT ON COLUMN futures_fills.quote_volume IS 'the filled value (quote coin); API field quoteVolume';
COMMENT ON COLUMN futures_fills.profit IS 'the realised profit of the fill (closing fills); API field profit';
COMMENT ON COLUMN futures_fills.fee_detail IS 'the feeDetail field as sent (new or legacy form); its coins and amounts are in fees, one row per coin; API field feeDetail';
COMMENT ON COLUMN futures_fills.enter_point_source IS 'where the order was placed (WEB, API, APP, ...); API field enterPointSource';
COMMENT ON COLUMN futures_fills.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN futures_fills.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN futures_fills.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN futures_fills.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN futures_fills.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN futures_fills.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- futures_bills: X6 /api/v2/mix/account/bill
COMMENT ON TABLE futures_bills IS 'X6 /api/v2/mix/account/bill: one row per futures account bill, per product type. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN futures_bills.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN futures_bills.product_type IS 'the futures product type the record was asked for (USDT-FUTURES, COIN-FUTURES, USDC-FUTURES; demo: SUSDT-FUTURES, ...); its ledger wallet is futures_wallet(product_type)';
COMMENT ON COLUMN futures_bills.bill_id IS 'the bill id; API field billId';
COMMENT ON COLUMN futures_bills.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN futures_bills.coin IS 'the coin whose balance changed; API field coin';
COMMENT ON COLUMN futures_bills.business_type IS 'the bill''s business type, which says what moved the balance (the ledger classes it: docs/ledger.md); API field businessType';
COMMENT ON COLUMN futures_bills.amount IS 'the signed change of the balance (> 0 in), without the fee; API field amount';
COMMENT ON COLUMN futures_bills.fee IS 'the fee charged with this bill (negative: paid); API field fee';
COMMENT ON COLUMN futures_bills.fee_by_coupon IS 'the part of the fee paid by a coupon (shown in futures-pnl.csv; not a balance change); API field feeByCoupon';
COMMENT ON COLUMN futures_bills.balance IS 'the balance of the coin in this wallet after this bill, as the exchange computed it (what reconciliation walks against); API field balance';
COMMENT ON COLUMN futures_bills.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN futures_bills.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN futures_bills.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN futures_bills.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN futures_bills.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN futures_bills.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- plan_orders: E11 /api/v2/mix/order/orders-plan-pending
COMMENT ON TABLE plan_orders IS 'E11 /api/v2/mix/order/orders-plan-pending: one row per futures trigger (plan) order seen pending. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN plan_orders.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN plan_orders.product_type IS 'the futures product type the record was asked for (USDT-FUTURES, COIN-FUTURES, USDC-FUTURES; demo: SUSDT-FUTURES, ...); its ledger wallet is futures_wallet(product_type)';
COMMENT ON COLUMN plan_orders.order_id IS 'the order id; API field orderId';
COMMENT ON COLUMN plan_orders.plan_type IS 'the trigger order''s type (normal_plan, track_plan, profit_plan, loss_plan, ...); API field planType';
COMMENT ON COLUMN plan_orders.client_oid IS 'the client order id given when the order was placed; API field clientOid';
COMMENT ON COLUMN plan_orders.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN plan_orders.side IS 'buy or sell; API field side';
COMMENT ON COLUMN plan_orders.trade_side IS 'open or close (hedge mode) or buy_single/sell_single (one-way mode); API field tradeSide';
COMMENT ON COLUMN plan_orders.pos_side IS 'the position side: long, short or net; API field posSide';
COMMENT ON COLUMN plan_orders.pos_mode IS 'the position mode: one_way_mode or hedge_mode; API field posMode';
COMMENT ON COLUMN plan_orders.margin_mode IS 'isolated or crossed; API field marginMode';
COMMENT ON COLUMN plan_orders.margin_coin IS 'the margin coin of the contract; API field marginCoin';
COMMENT ON COLUMN plan_orders.order_type IS 'limit or market; API field orderType';
COMMENT ON COLUMN plan_orders.order_source IS 'how the order came about (normal, market, plan, ...); API field orderSource';
COMMENT ON COLUMN plan_orders.plan_status IS 'the trigger order''s status (live, executed, cancelled, ...); API field planStatus';
COMMENT ON COLUMN plan_orders.trigger_type IS 'the price the trigger watches: fill_price or mark_price; API field triggerType';
COMMENT ON COLUMN plan_orders.size IS 'the quantity to order when triggered; API field size';
COMMENT ON COLUMN plan_orders.price IS 'the limit price of the order placed when triggered; API field price';
COMMENT ON COLUMN plan_orders.execute_price IS 'the price the triggered order is placed at; API field executePrice';
COMMENT ON COLUMN plan_orders.trigger_price IS 'the trigger price; API field triggerPrice';
COMMENT ON COLUMN plan_orders.callback_ratio IS 'the callback ratio of a trailing (track) order; API field callbackRatio';
COMMENT ON COLUMN plan_orders.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN plan_orders.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN plan_orders.last_seen_at IS 'when a sync last saw the order pending (E11 lists only pending orders, so an older last_seen_at means it is no longer pending)';
COMMENT ON COLUMN plan_orders.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN plan_orders.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN plan_orders.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN plan_orders.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN plan_orders.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- deposits: E20 /api/v2/spot/wallet/deposit-records
COMMENT ON TABLE deposits IS 'E20 /api/v2/spot/wallet/deposit-records: one row per deposit. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN deposits.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN deposits.order_id IS 'the deposit id; API field orderId';
COMMENT ON COLUMN deposits.trade_id IS 'the on-chain transaction hash (or the internal transfer id); API field tradeId';
COMMENT ON COLUMN deposits.coin IS 'the coin; API field coin';
COMMENT ON COLUMN deposits.type IS 'on_chain or internal (between accounts of the exchange); API field type';
COMMENT ON COLUMN deposits.dest IS 'on_chain or internal_transfer, as the exchange spells it (norm_dest() normalises it); API field dest';
COMMENT ON COLUMN deposits.chain IS 'the network, e.g. ERC20; API field chain';
COMMENT ON COLUMN deposits.status IS 'the record''s status as the exchange sent it (norm_status() normalises it); API field status';
COMMENT ON COLUMN deposits.size IS 'the amount deposited; API field size';
COMMENT ON COLUMN deposits.from_address IS 'the sending address (or UID, for an internal transfer); API field fromAddress';
COMMENT ON COLUMN deposits.to_address IS 'the receiving address (or UID, for an internal transfer); API field toAddress';
COMMENT ON COLUMN deposits.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN deposits.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN deposits.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN deposits.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN deposits.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN deposits.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN deposits.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- withdrawals: X3 /api/v2/spot/wallet/withdrawal-records
COMMENT ON TABLE withdrawals IS 'X3 /api/v2/spot/wallet/withdrawal-records: one row per withdrawal. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN withdrawals.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN withdrawals.order_id IS 'the withdrawal id; API field orderId';
COMMENT ON COLUMN withdrawals.trade_id IS 'the on-chain transaction hash (or the internal transfer id); API field tradeId';
COMMENT ON COLUMN withdrawals.client_oid IS 'the client order id given when the order was placed; API field clientOid';
COMMENT ON COLUMN withdrawals.coin IS 'the coin; API field coin';
COMMENT ON COLUMN withdrawals.type IS 'on_chain or internal (between accounts of the exchange); API field type';
COMMENT ON COLUMN withdrawals.dest IS 'on_chain or internal_transfer, as the exchange spells it (norm_dest() normalises it); API field dest';
COMMENT ON COLUMN withdrawals.chain IS 'the network, e.g. ERC20; API field chain';
COMMENT ON COLUMN withdrawals.tag IS 'the address tag or memo; API field tag';
COMMENT ON COLUMN withdrawals.status IS 'the record''s status as the exchange sent it (norm_status() normalises it); API field status';
COMMENT ON COLUMN withdrawals.size IS 'the amount withdrawn (the fee is charged on top); API field size';
COMMENT ON COLUMN withdrawals.fee IS 'the withdrawal fee (charged on top of size); API field fee';
COMMENT ON COLUMN withdrawals.confirm IS 'the number of block confirmations; API field confirm';
COMMENT ON COLUMN withdrawals.from_address IS 'the sending address (or UID, for an internal transfer); API field fromAddress';
COMMENT ON COLUMN withdrawals.to_address IS 'the receiving address (or UID, for an internal transfer); API field toAddress';
COMMENT ON COLUMN withdrawals.c_time IS 'when the record was created (cTime, ms since epoch, stored as timestamptz); API field cTime';
COMMENT ON COLUMN withdrawals.u_time IS 'when the record was last updated (uTime, ms since epoch, stored as timestamptz); API field uTime';
COMMENT ON COLUMN withdrawals.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN withdrawals.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN withdrawals.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN withdrawals.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN withdrawals.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- transfers: E19 /api/v2/spot/account/sub-main-trans-record
COMMENT ON TABLE transfers IS 'E19 /api/v2/spot/account/sub-main-trans-record: one row per transfer between main and sub-accounts or wallets. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN transfers.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN transfers.transfer_id IS 'the transfer id; API field transferId';
COMMENT ON COLUMN transfers.client_oid IS 'the client order id given when the order was placed; API field clientOid';
COMMENT ON COLUMN transfers.coin IS 'the coin; API field coin';
COMMENT ON COLUMN transfers.status IS 'Successful, Processing or Failed; only Successful moves a balance; API field status';
COMMENT ON COLUMN transfers.from_type IS 'the wallet the coins left (spot, usdt_futures, crossed_margin, ...); API field fromType';
COMMENT ON COLUMN transfers.to_type IS 'the wallet the coins went to; API field toType';
COMMENT ON COLUMN transfers.from_user_id IS 'the UID the coins left; API field fromUserId';
COMMENT ON COLUMN transfers.to_user_id IS 'the UID the coins went to; API field toUserId';
COMMENT ON COLUMN transfers.size IS 'the amount transferred; API field size';
COMMENT ON COLUMN transfers.ts IS 'when the transfer happened (ms since epoch, stored as timestamptz); API field ts';
COMMENT ON COLUMN transfers.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN transfers.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN transfers.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN transfers.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN transfers.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- tax_spot_records: X7 /api/v2/tax/spot-record
COMMENT ON TABLE tax_spot_records IS 'X7 /api/v2/tax/spot-record: one row per spot tax record. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN tax_spot_records.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN tax_spot_records.id IS 'the record id; API field id';
COMMENT ON COLUMN tax_spot_records.coin IS 'the coin; API field coin';
COMMENT ON COLUMN tax_spot_records.spot_tax_type IS 'what the spot tax record is (the exchange''s spotTaxType); API field spotTaxType';
COMMENT ON COLUMN tax_spot_records.amount IS 'the record''s amount; API field amount';
COMMENT ON COLUMN tax_spot_records.fee IS 'the fee of the record; API field fee';
COMMENT ON COLUMN tax_spot_records.total IS 'the balance total the exchange reports with it; API field total';
COMMENT ON COLUMN tax_spot_records.ts IS 'when the record happened (ms since epoch, stored as timestamptz); API field ts';
COMMENT ON COLUMN tax_spot_records.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN tax_spot_records.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN tax_spot_records.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN tax_spot_records.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN tax_spot_records.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- tax_future_records: X8 /api/v2/tax/future-record
COMMENT ON TABLE tax_future_records IS 'X8 /api/v2/tax/future-record: one row per futures tax record. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN tax_future_records.account_uid IS 'the UID of the account this record belongs to (the account the sync asked for)';
COMMENT ON COLUMN tax_future_records.id IS 'the record id; API field id';
COMMENT ON COLUMN tax_future_records.symbol IS 'the contract; API field symbol';
COMMENT ON COLUMN tax_future_records.margin_coin IS 'the margin coin of the contract; API field marginCoin';
COMMENT ON COLUMN tax_future_records.future_tax_type IS 'what the futures tax record is (the exchange''s futureTaxType); API field futureTaxType';
COMMENT ON COLUMN tax_future_records.amount IS 'the record''s amount; API field amount';
COMMENT ON COLUMN tax_future_records.fee IS 'the fee of the record; API field fee';
COMMENT ON COLUMN tax_future_records.ts IS 'when the record happened (ms since epoch, stored as timestamptz); API field ts';
COMMENT ON COLUMN tax_future_records.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN tax_future_records.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN tax_future_records.first_seen_at IS 'when a sync first stored the record';
COMMENT ON COLUMN tax_future_records.updated_at IS 'when the record last changed (its raw record or its problems)';
COMMENT ON COLUMN tax_future_records.seen_run_id IS 'the sync run (sync_runs.id) that last stored or changed it';

-- futures_account_snapshots: E14 /api/v2/mix/account/accounts
COMMENT ON TABLE futures_account_snapshots IS 'E14 /api/v2/mix/account/accounts: one row per futures account (product type, margin coin) as of each sync run. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN futures_account_snapshots.snapshot_at IS 'the time of the sync run that took the snapshot (one per run)';
COMMENT ON COLUMN futures_account_snapshots.account_uid IS 'the UID of the account the snapshot is of';
COMMENT ON COLUMN futures_account_snapshots.product_type IS 'the futures product type of the snapshot (USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, ...)';
COMMENT ON COLUMN futures_account_snapshots.margin_coin IS 'the margin coin of the contract; API field marginCoin';
COMMENT ON COLUMN futures_account_snapshots.available IS 'the available amount; API field available';
COMMENT ON COLUMN futures_account_snapshots.locked IS 'the amount locked (in orders or positions); API field locked';
COMMENT ON COLUMN futures_account_snapshots.account_equity IS 'the account equity in the margin coin, including unrealised PnL; API field accountEquity';
COMMENT ON COLUMN futures_account_snapshots.usdt_equity IS 'the account equity valued in USDT; API field usdtEquity';
COMMENT ON COLUMN futures_account_snapshots.unrealized_pl IS 'the unrealised profit or loss; API field unrealizedPL';
COMMENT ON COLUMN futures_account_snapshots.asset_mode IS 'single or union (multi-asset) margin mode; API field assetMode';
COMMENT ON COLUMN futures_account_snapshots.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN futures_account_snapshots.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN futures_account_snapshots.run_id IS 'the sync run (sync_runs.id) that took the snapshot';

-- position_snapshots: E12/E16 /api/v2/mix/position/single-position and all-position
COMMENT ON TABLE position_snapshots IS 'E12/E16 /api/v2/mix/position/single-position and all-position: one row per open futures position as of each sync run. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN position_snapshots.snapshot_at IS 'the time of the sync run that took the snapshot (one per run)';
COMMENT ON COLUMN position_snapshots.account_uid IS 'the UID of the account the snapshot is of';
COMMENT ON COLUMN position_snapshots.product_type IS 'the futures product type of the snapshot (USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, ...)';
COMMENT ON COLUMN position_snapshots.symbol IS 'the trading pair or contract, e.g. BTCUSDT; API field symbol';
COMMENT ON COLUMN position_snapshots.margin_coin IS 'the margin coin of the contract; API field marginCoin';
COMMENT ON COLUMN position_snapshots.hold_side IS 'long or short; API field holdSide';
COMMENT ON COLUMN position_snapshots.margin_mode IS 'isolated or crossed; API field marginMode';
COMMENT ON COLUMN position_snapshots.total IS 'the position size; API field total';
COMMENT ON COLUMN position_snapshots.available IS 'the part of the position that can be closed; API field available';
COMMENT ON COLUMN position_snapshots.locked IS 'the part locked in close orders; API field locked';
COMMENT ON COLUMN position_snapshots.open_price_avg IS 'the average open price; API field openPriceAvg';
COMMENT ON COLUMN position_snapshots.achieved_profits IS 'the realised profit of the position so far; API field achievedProfits';
COMMENT ON COLUMN position_snapshots.unrealized_pl IS 'the unrealised profit or loss; API field unrealizedPL';
COMMENT ON COLUMN position_snapshots.total_fee IS 'the fees paid on the position; API field totalFee';
COMMENT ON COLUMN position_snapshots.leverage IS 'the leverage; API field leverage';
COMMENT ON COLUMN position_snapshots.pos_mode IS 'the position mode: one_way_mode or hedge_mode; API field posMode';
COMMENT ON COLUMN position_snapshots.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN position_snapshots.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';
COMMENT ON COLUMN position_snapshots.run_id IS 'the sync run (sync_runs.id) that took the snapshot';

-- sub_account_snapshots: E10 /api/v2/user/virtual-subaccount-list
COMMENT ON TABLE sub_account_snapshots IS 'E10 /api/v2/user/virtual-subaccount-list: one row per virtual sub-account as of each sync run. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN sub_account_snapshots.snapshot_at IS 'the time of the sync run that took the snapshot (one per run)';
COMMENT ON COLUMN sub_account_snapshots.main_uid IS 'the UID of the main account the sub-account belongs to';
COMMENT ON COLUMN sub_account_snapshots.sub_account_uid IS 'the sub-account''s UID; API field subAccountUid';
COMMENT ON COLUMN sub_account_snapshots.sub_account_name IS 'the sub-account''s name; API field subAccountName';
COMMENT ON COLUMN sub_account_snapshots.status IS 'the record''s status as the exchange sent it (norm_status() normalises it); API field status';
COMMENT ON COLUMN sub_account_snapshots.label IS 'the label given to it; API field label';
COMMENT ON COLUMN sub_account_snapshots.perm_list IS 'its permissions; API field permList';
COMMENT ON COLUMN sub_account_snapshots.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN sub_account_snapshots.run_id IS 'the sync run (sync_runs.id) that took the snapshot';
COMMENT ON COLUMN sub_account_snapshots.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';

-- sub_account_api_key_snapshots: E8 /api/v2/user/virtual-subaccount-apikey-list
COMMENT ON TABLE sub_account_api_key_snapshots IS 'E8 /api/v2/user/virtual-subaccount-apikey-list: one row per sub-account API key as of each sync run. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN sub_account_api_key_snapshots.snapshot_at IS 'the time of the sync run that took the snapshot (one per run)';
COMMENT ON COLUMN sub_account_api_key_snapshots.main_uid IS 'the UID of the main account';
COMMENT ON COLUMN sub_account_api_key_snapshots.sub_account_uid IS 'the sub-account the key belongs to';
COMMENT ON COLUMN sub_account_api_key_snapshots.api_key IS 'the sub-account''s API key id (its access key, not a secret); API field subAccountApiKey';
COMMENT ON COLUMN sub_account_api_key_snapshots.label IS 'the label given to it; API field label';
COMMENT ON COLUMN sub_account_api_key_snapshots.perm_list IS 'its permissions; API field permList';
COMMENT ON COLUMN sub_account_api_key_snapshots.ip_list IS 'the IP addresses the key is bound to; API field ipList';
COMMENT ON COLUMN sub_account_api_key_snapshots.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN sub_account_api_key_snapshots.run_id IS 'the sync run (sync_runs.id) that took the snapshot';
COMMENT ON COLUMN sub_account_api_key_snapshots.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';

-- contract_snapshots: E2 /api/v2/mix/market/contracts
COMMENT ON TABLE contract_snapshots IS 'E2 /api/v2/mix/market/contracts: one row per demo-trading futures contract as of each sync run. Typed columns are read from raw (the API field is named in each column''s comment); docs/ledger.md says how the ledger reads them.';
COMMENT ON COLUMN contract_snapshots.snapshot_at IS 'the time of the sync run that took the snapshot (one per run)';
COMMENT ON COLUMN contract_snapshots.product_type IS 'the demo product type asked for (SUSDT-FUTURES, SCOIN-FUTURES, SUSDC-FUTURES)';
COMMENT ON COLUMN contract_snapshots.symbol IS 'the contract';
COMMENT ON COLUMN contract_snapshots.raw IS 'the record exactly as the exchange sent it (JSON); the typed columns are read from it';
COMMENT ON COLUMN contract_snapshots.run_id IS 'the sync run (sync_runs.id) that took the snapshot';
COMMENT ON COLUMN contract_snapshots.problems IS 'what the sync found wrong or doubtful in the record (unreadable field, unused sign, ...); non-empty rows are listed in data_quality and data-quality.csv';

-- Bookkeeping of the sync
COMMENT ON COLUMN accounts.uid IS 'the exchange UID of the account (main, sub-account or demo account)';
COMMENT ON COLUMN accounts.name IS 'the account''s name in the config (or the sub-account''s name the exchange gives)';
COMMENT ON COLUMN accounts.parent_uid IS 'for a sub-account, the UID of its main account; NULL otherwise';
COMMENT ON COLUMN accounts.added_at IS 'when a sync first recorded the account';

COMMENT ON TABLE sync_runs IS 'One row per sync run (tradeledger sync, demo or a worker job): when, how it ended, what it did per account, stream and partition.';
COMMENT ON COLUMN sync_runs.id IS 'the run''s id; seen_run_id, run_id and last_run_id elsewhere point here';
COMMENT ON COLUMN sync_runs.started_at IS 'when the run started';
COMMENT ON COLUMN sync_runs.finished_at IS 'when the run ended; NULL while running or when it was killed';
COMMENT ON COLUMN sync_runs.status IS 'running | ok (every stream completed) | partial (a stream failed; the others saved) | failed | interrupted (left running by a process that is gone)';
COMMENT ON COLUMN sync_runs.options IS 'the run''s settings (accounts, streams, since, ...) as JSON; never a secret';
COMMENT ON COLUMN sync_runs.counts IS 'per "<account>/<stream>/<partition>": inserted, updated, unchanged, pages, requests';
COMMENT ON COLUMN sync_runs.errors IS 'the errors of failed streams (code, message, stream), as JSON';
COMMENT ON COLUMN sync_runs.gaps IS 'the history gaps the run found (also in history_gaps), as JSON';
COMMENT ON COLUMN sync_runs.account_uids IS 'the accounts the run synced';
COMMENT ON COLUMN sync_runs.backend_pid IS 'the PostgreSQL backend holding the run''s per-account locks; a running run is marked interrupted only once that backend is gone';

COMMENT ON TABLE sync_state IS 'One row per (account, stream, partition): the checkpoint a sync resumes from, and how its last run went (tradeledger status reads it).';
COMMENT ON COLUMN sync_state.account_uid IS 'the account';
COMMENT ON COLUMN sync_state.stream IS 'the stream (spotFills, futuresBills, ...; tradeledger sync --dry-run lists them)';
COMMENT ON COLUMN sync_state.partition IS 'the request partition (a product type, margin type, coin, ...) or all';
COMMENT ON COLUMN sync_state.watermark IS 'everything before this time has been read completely';
COMMENT ON COLUMN sync_state.window_start IS 'the start of the window being walked (NULL between runs)';
COMMENT ON COLUMN sync_state.window_end IS 'the end of the window being walked';
COMMENT ON COLUMN sync_state.cursor IS 'the cursor of the next (older) page inside the window; NULL = start at the newest page';
COMMENT ON COLUMN sync_state.status IS 'idle | running | ok | failed: how the partition''s last read went';
COMMENT ON COLUMN sync_state.last_error IS 'the error of the last failed read (no secrets)';
COMMENT ON COLUMN sync_state.last_run_id IS 'the sync run (sync_runs.id) that last touched the partition';
COMMENT ON COLUMN sync_state.updated_at IS 'when the checkpoint was last written';
COMMENT ON COLUMN sync_state.current_from IS 'current-state streams (pending trigger orders): the oldest record current at the last complete read, where the next read starts; NULL: not recorded yet';

COMMENT ON TABLE sync_windows IS 'The windows of one stream partition a sync walks in parallel (a first sync or a long catch-up); rows left here mean an interrupted run, which the next one finishes first (src/extract/README.md).';
COMMENT ON COLUMN sync_windows.account_uid IS 'the account';
COMMENT ON COLUMN sync_windows.stream IS 'the stream';
COMMENT ON COLUMN sync_windows.partition IS 'the request partition';
COMMENT ON COLUMN sync_windows.window_start IS 'the window''s start (inclusive)';
COMMENT ON COLUMN sync_windows.window_end IS 'the window''s end';
COMMENT ON COLUMN sync_windows.cursor IS 'the cursor of the window''s next (older) page; committed with its pages';
COMMENT ON COLUMN sync_windows.done IS 'true once every page of the window is stored';
COMMENT ON COLUMN sync_windows.last_run_id IS 'the sync run (sync_runs.id) that last walked the window';
COMMENT ON COLUMN sync_windows.updated_at IS 'when the row was last written';

COMMENT ON TABLE history_gaps IS 'History the sync knows it cannot read (an endpoint''s horizon, e.g. E21 serves 90 days; before the first sync''s start). Every report and data_quality list them.';
COMMENT ON COLUMN history_gaps.account_uid IS 'the account';
COMMENT ON COLUMN history_gaps.stream IS 'the stream whose history is missing';
COMMENT ON COLUMN history_gaps.partition IS 'the request partition';
COMMENT ON COLUMN history_gaps.gap_from IS 'the start of the missing period (inclusive)';
COMMENT ON COLUMN history_gaps.gap_to IS 'the end of the missing period (exclusive)';
COMMENT ON COLUMN history_gaps.reason IS 'why it cannot be read (horizon, before the sync''s start, ...)';
COMMENT ON COLUMN history_gaps.run_id IS 'the sync run (sync_runs.id) that recorded the gap';
COMMENT ON COLUMN history_gaps.recorded_at IS 'when the gap was recorded';

COMMENT ON TABLE sync_workers IS 'One row per live tradeledger worker process (graphile-worker); its heartbeat tells a dead worker''s jobs to take over.';
COMMENT ON COLUMN sync_workers.pool_id IS 'the graphile-worker pool id (what it writes in jobs.locked_by)';
COMMENT ON COLUMN sync_workers.host IS 'the host the worker runs on';
COMMENT ON COLUMN sync_workers.pid IS 'the worker''s operating-system process id';
COMMENT ON COLUMN sync_workers.backend_pid IS 'the PostgreSQL backend of the connection the worker holds open for its life';
COMMENT ON COLUMN sync_workers.concurrency IS 'how many jobs the worker runs at once';
COMMENT ON COLUMN sync_workers.started_at IS 'when the worker started';
COMMENT ON COLUMN sync_workers.heartbeat_at IS 'the worker''s last heartbeat';

COMMENT ON TABLE sync_job_failures IS 'Sync jobs that failed for good (configuration or authentication): not retried, reported once.';
COMMENT ON COLUMN sync_job_failures.id IS 'the row''s id';
COMMENT ON COLUMN sync_job_failures.account_uid IS 'the account the job was for';
COMMENT ON COLUMN sync_job_failures.account_name IS 'the account''s name in the config';
COMMENT ON COLUMN sync_job_failures.job_id IS 'the graphile-worker job id';
COMMENT ON COLUMN sync_job_failures.code IS 'the error code (src/errorCodes.ts lists them)';
COMMENT ON COLUMN sync_job_failures.message IS 'what happened (no secrets)';
COMMENT ON COLUMN sync_job_failures.failed_at IS 'when the job failed';

-- Fees, prices, FX, imports
COMMENT ON TABLE fees IS 'One row per coin a record''s fee was paid in, read from feeDetail in every form it comes in (src/normalize/README.md); the ledger books -paid as kind fee.';
COMMENT ON COLUMN fees.account_uid IS 'the account that paid';
COMMENT ON COLUMN fees.source IS 'the table of the record the fee belongs to (spot_fills, futures_fills, spot_orders)';
COMMENT ON COLUMN fees.source_id IS 'the record''s id in that table (a fill''s trade_id, an order''s order_id)';
COMMENT ON COLUMN fees.seq IS 'the fee row''s number within its record (the ledger leg is fee:<seq>)';
COMMENT ON COLUMN fees.coin IS 'the coin the fee was paid in';
COMMENT ON COLUMN fees.paid IS 'what left the account in this coin (> 0); < 0 is a rebate that came in';
COMMENT ON COLUMN fees.platform_deducted IS 'the part paid in the platform coin by deduction, when the record says';
COMMENT ON COLUMN fees.coupon_covered IS 'the part a coupon covered (not a balance change)';
COMMENT ON COLUMN fees.payable_in_received_coin IS 'the fee as it would have been in the received coin, when the record says';
COMMENT ON COLUMN fees.format IS 'which feeDetail form it was read from: new, legacy, fill-object, fill-array, empty, malformed';
COMMENT ON COLUMN fees.rebate IS 'true when the row is a rebate (paid < 0: the coin came in)';
COMMENT ON COLUMN fees.c_time IS 'the time of the record it belongs to (the fill''s c_time), so a time filter uses the fees_c_time index';

COMMENT ON TABLE imported_files IS 'Every file brought by tradeledger import (ECB rates or Koinly transactions), once per content (SHA-256).';
COMMENT ON COLUMN imported_files.sha256 IS 'SHA-256 (hex) of the file''s bytes: its identity';
COMMENT ON COLUMN imported_files.kind IS 'fx (ECB euro reference rates) or transactions (Koinly universal CSV)';
COMMENT ON COLUMN imported_files.file_name IS 'the file''s name as given';
COMMENT ON COLUMN imported_files.wallet IS 'the wallet a transactions file was imported into (--wallet); NULL for fx';
COMMENT ON COLUMN imported_files.rows IS 'how many lines of the file were stored';
COMMENT ON COLUMN imported_files.imported_at IS 'when it was imported';

COMMENT ON TABLE fx_rates IS 'ECB euro reference rates as imported (tradeledger import fx): units of the currency per 1 EUR, on the days the ECB published.';
COMMENT ON COLUMN fx_rates.currency IS 'the ISO 4217 currency';
COMMENT ON COLUMN fx_rates.day IS 'the day of the rate';
COMMENT ON COLUMN fx_rates.per_eur IS 'units of the currency per 1 EUR that day';
COMMENT ON COLUMN fx_rates.file_sha256 IS 'the file it came from (imported_files.sha256)';
COMMENT ON COLUMN fx_rates.line IS 'the line of that file';
COMMENT ON COLUMN fx_rates_daily.currency IS 'the ISO 4217 currency';
COMMENT ON COLUMN fx_rates_daily.day IS 'every calendar day from the first rate on';
COMMENT ON COLUMN fx_rates_daily.per_eur IS 'units of the currency per 1 EUR in force that day (the last published rate on or before it)';
COMMENT ON COLUMN fx_rates_daily.rate_day IS 'the day the rate in force was published';
COMMENT ON COLUMN fx_rates_daily.usd_rate_day IS 'the day the USD rate behind per_usd was published';

COMMENT ON TABLE stablecoins IS 'Coins valued 1:1 in their peg currency by ledger_valued (docs/valuation.md).';
COMMENT ON COLUMN stablecoins.coin IS 'the coin';
COMMENT ON COLUMN stablecoins.peg IS 'the fiat currency it is pegged to (USD)';
COMMENT ON TABLE quote_coins IS 'The coins a spot symbol can end in: the ledger, spot_symbol_quote() and ledger_valued split a symbol (BTCUSDT) into base and quote by the longest that matches.';
COMMENT ON COLUMN quote_coins.coin IS 'a quote coin (USDT, BTC, EUR, ...)';
COMMENT ON TABLE price_symbols IS 'The spot pair the prices stream chose to price each coin with.';
COMMENT ON COLUMN price_symbols.coin IS 'the coin priced';
COMMENT ON COLUMN price_symbols.symbol IS 'the spot pair whose candles price it, e.g. BTCUSDT';
COMMENT ON COLUMN price_symbols.quote_coin IS 'the pair''s quote coin';
COMMENT ON COLUMN price_symbols.chosen_at IS 'when the pair was chosen';
COMMENT ON COLUMN price_candles.symbol IS 'the spot pair';
COMMENT ON COLUMN price_candles.granularity IS 'the candle length (1h)';
COMMENT ON COLUMN price_candles.ts IS 'the candle''s open time';
COMMENT ON COLUMN price_candles.open IS 'the first price of the candle (quote coin)';
COMMENT ON COLUMN price_candles.high IS 'the highest price';
COMMENT ON COLUMN price_candles.low IS 'the lowest price';
COMMENT ON COLUMN price_candles.close IS 'the last price: what the valuation''s candle rule uses';
COMMENT ON COLUMN price_candles.base_volume IS 'the volume traded in the base coin';
COMMENT ON COLUMN price_candles.quote_volume IS 'the volume traded in the quote coin';
COMMENT ON COLUMN price_candles.usdt_volume IS 'the volume traded, in USDT';
COMMENT ON COLUMN price_candles.raw IS 'the candle exactly as the exchange sent it (JSON array)';
COMMENT ON COLUMN price_candles.run_id IS 'the sync run (sync_runs.id) that fetched it';
COMMENT ON COLUMN price_candles.fetched_at IS 'when it was fetched';
COMMENT ON TABLE price_coverage IS 'Time ranges whose candles the prices stream has asked for (with or without candles in them), so an hour without trading is not asked again.';
COMMENT ON COLUMN price_coverage.symbol IS 'the spot pair';
COMMENT ON COLUMN price_coverage.granularity IS 'the candle length (1h)';
COMMENT ON COLUMN price_coverage.range_from IS 'the start of the range asked for (inclusive)';
COMMENT ON COLUMN price_coverage.range_to IS 'the end of the range (exclusive)';
COMMENT ON COLUMN price_coverage.run_id IS 'the sync run (sync_runs.id) that asked';

COMMENT ON COLUMN imported_transactions.file_sha256 IS 'the file the line came from (imported_files.sha256)';
COMMENT ON COLUMN imported_transactions.line IS 'the line''s number in that file, as import errors name it';
COMMENT ON COLUMN imported_transactions.source_id IS 'file_sha256:line; the ledger''s source_id for the line';
COMMENT ON COLUMN imported_transactions.wallet IS 'the wallet it was imported into (--wallet); the ledger shows it as account_uid and wallet';
COMMENT ON COLUMN imported_transactions.ts IS 'the line''s Date (UTC)';
COMMENT ON COLUMN imported_transactions.sent_amount IS 'Sent Amount (> 0)';
COMMENT ON COLUMN imported_transactions.sent_currency IS 'Sent Currency';
COMMENT ON COLUMN imported_transactions.received_amount IS 'Received Amount (> 0)';
COMMENT ON COLUMN imported_transactions.received_currency IS 'Received Currency';
COMMENT ON COLUMN imported_transactions.fee_amount IS 'Fee Amount (> 0)';
COMMENT ON COLUMN imported_transactions.fee_currency IS 'Fee Currency';
COMMENT ON COLUMN imported_transactions.net_worth_amount IS 'Net Worth Amount: the line''s own fiat value (ledger_valued''s imported rule uses it)';
COMMENT ON COLUMN imported_transactions.net_worth_currency IS 'Net Worth Currency';
COMMENT ON COLUMN imported_transactions.label IS 'Label (Koinly''s tag: reward, realized gain, ...)';
COMMENT ON COLUMN imported_transactions.description IS 'Description';
COMMENT ON COLUMN imported_transactions.tx_hash IS 'TxHash (opening-balance:<uid>:<wallet>:<coin> for an opening balance line)';
COMMENT ON COLUMN imported_transactions.raw IS 'the line''s cells as read, by header name (JSON)';

-- Gains
COMMENT ON TABLE gains_runs IS 'One row per tradeledger gains request (rules, tax year, fiat, zone, account, pools); a rerun replaces its matches, holdings, income and problems.';
COMMENT ON COLUMN gains_runs.run_id IS 'the run''s id (gains_matches.run_id etc.)';
COMMENT ON COLUMN gains_runs.rules IS 'the rule set: uk, us, de, au, ca, fifo, lifo, hifo, average';
COMMENT ON COLUMN gains_runs.tax_year IS 'the tax year asked for (the one that starts in that year)';
COMMENT ON COLUMN gains_runs.fiat IS 'the currency values are in';
COMMENT ON COLUMN gains_runs.tz IS 'the IANA time zone days are counted in';
COMMENT ON COLUMN gains_runs.account IS 'the account or wallet asked for; empty = every account';
COMMENT ON COLUMN gains_runs.pools IS 'universal (one pool per asset) or wallet (one per account and wallet)';
COMMENT ON COLUMN gains_runs.period_from IS 'the tax year''s first day';
COMMENT ON COLUMN gains_runs.period_to IS 'the first day after the tax year';
COMMENT ON COLUMN gains_runs.created_at IS 'when the run was made';
COMMENT ON COLUMN gains_matches.run_id IS 'the gains run (gains_runs.run_id)';
COMMENT ON COLUMN gains_matches.seq IS 'the match''s number within the run (gains.csv order)';
COMMENT ON COLUMN gains_matches.asset IS 'the coin disposed of';
COMMENT ON COLUMN gains_matches.quantity IS 'the quantity this match covers';
COMMENT ON COLUMN gains_matches.acquired_day IS 'the day the matched coins were acquired; NULL for a pool share (s104, average) or no cost';
COMMENT ON COLUMN gains_matches.disposed_day IS 'the day of the disposal, in the run''s zone';
COMMENT ON COLUMN gains_matches.disposed_at IS 'the moment of the disposal';
COMMENT ON COLUMN gains_matches.proceeds IS 'this part''s proceeds in the run''s fiat, net of disposal costs';
COMMENT ON COLUMN gains_matches.cost IS 'this part''s allowable cost in the run''s fiat';
COMMENT ON COLUMN gains_matches.gain IS 'proceeds - cost (+ denied_loss); < 0 is a loss';
COMMENT ON COLUMN gains_matches.basis IS 'how the cost was found: same-day, 30-day, s104, fifo, lifo, hifo, average, specific, no-cost (docs/gains.md)';
COMMENT ON COLUMN gains_matches.class IS 'the holding-period class the rule set reports it under (e.g. short or long term)';
COMMENT ON COLUMN gains_matches.pool IS 'the pool the coins came from (the asset, or account/wallet with --pools wallet)';
COMMENT ON COLUMN gains_matches.disposal_refs IS 'the ledger rows of the disposal, each source|source_id|leg (gains_match_rows splits them)';
COMMENT ON COLUMN gains_matches.acquisition_refs IS 'the ledger rows of the acquisitions matched, each source|source_id|leg';
COMMENT ON COLUMN gains_holdings.run_id IS 'the gains run (gains_runs.run_id)';
COMMENT ON COLUMN gains_holdings.seq IS 'the row''s number within the run';
COMMENT ON COLUMN gains_holdings.asset IS 'the coin held at the end of the tax year';
COMMENT ON COLUMN gains_holdings.pool IS 'the pool it is held in';
COMMENT ON COLUMN gains_holdings.quantity IS 'the quantity held';
COMMENT ON COLUMN gains_holdings.cost IS 'its remaining cost in the run''s fiat';
COMMENT ON COLUMN gains_holdings.acquired_day IS 'the day the lot was acquired; NULL for a pool';
COMMENT ON COLUMN gains_holdings.refs IS 'the ledger rows of its acquisitions, each source|source_id|leg';
COMMENT ON COLUMN gains_income.run_id IS 'the gains run (gains_runs.run_id)';
COMMENT ON COLUMN gains_income.seq IS 'the row''s number within the run (income.csv order)';
COMMENT ON COLUMN gains_income.category IS 'futures_realized_pnl, funding, margin_interest, risk_fund_compensation, confiscation, liquidation_fee, or an imported line''s label';
COMMENT ON COLUMN gains_income.asset IS 'the coin';
COMMENT ON COLUMN gains_income.quantity IS 'the signed quantity (> 0 received)';
COMMENT ON COLUMN gains_income.value IS 'its value in the run''s fiat; NULL when unpriced';
COMMENT ON COLUMN gains_income.ts IS 'when it happened';
COMMENT ON COLUMN gains_income.day IS 'the day, in the run''s zone';
COMMENT ON COLUMN gains_income.pool IS 'the pool it belongs to';
COMMENT ON COLUMN gains_income.ref IS 'the ledger row, source|source_id|leg';
COMMENT ON COLUMN gains_problems.run_id IS 'the gains run (gains_runs.run_id)';
COMMENT ON COLUMN gains_problems.seq IS 'the row''s number within the run';
COMMENT ON COLUMN gains_problems.problem IS 'unpriced, deposit_market_value, withdrawal_not_disposal, loan_not_disposal, unmatched_transfer, other_kind, lot_selection_unused';
COMMENT ON COLUMN gains_problems.ref IS 'the ledger row concerned, source|source_id|leg';
COMMENT ON COLUMN gains_problems.detail IS 'what was done about it, in words';
COMMENT ON COLUMN gains_match_rows.run_id IS 'the gains run';
COMMENT ON COLUMN gains_match_rows.seq IS 'the match (gains_matches.seq)';
COMMENT ON COLUMN gains_match_rows.side IS 'disposal or acquisition';
COMMENT ON COLUMN gains_match_rows.source IS 'the ledger row''s source table';
COMMENT ON COLUMN gains_match_rows.source_id IS 'the ledger row''s source_id';
COMMENT ON COLUMN gains_match_rows.leg IS 'the ledger row''s leg';

-- Portal
COMMENT ON TABLE portal_users IS 'Portal users (tradeledger users add).';
COMMENT ON COLUMN portal_users.id IS 'the user''s id';
COMMENT ON COLUMN portal_users.username IS 'the sign-in name (unique, ignoring case)';
COMMENT ON COLUMN portal_users.password_hash IS 'scrypt$<N>$<r>$<p>$<salt>$<hash>; never the password';
COMMENT ON COLUMN portal_users.role IS 'admin (every account) or accountant (the accounts in portal_grants)';
COMMENT ON COLUMN portal_users.created_at IS 'when the user was added';
COMMENT ON COLUMN portal_users.password_changed_at IS 'when the password was last set; sessions from before it end';
COMMENT ON TABLE portal_grants IS 'An accountant''s accounts: exchange UIDs or imported wallet names.';
COMMENT ON COLUMN portal_grants.user_id IS 'the user (portal_users.id)';
COMMENT ON COLUMN portal_grants.account_uid IS 'an account UID or imported wallet name the user may see';
COMMENT ON COLUMN portal_grants.granted_at IS 'when it was granted';
COMMENT ON TABLE portal_sessions IS 'Portal sign-in sessions.';
COMMENT ON COLUMN portal_sessions.id IS 'the session''s id';
COMMENT ON COLUMN portal_sessions.token_hash IS 'SHA-256 of the random token in the cookie (the token itself is never stored)';
COMMENT ON COLUMN portal_sessions.user_id IS 'the user (portal_users.id)';
COMMENT ON COLUMN portal_sessions.created_at IS 'when the user signed in';
COMMENT ON COLUMN portal_sessions.last_seen_at IS 'the session''s last request';
COMMENT ON COLUMN portal_sessions.expires_at IS 'when it ends: the earlier of the idle and the absolute limit';
COMMENT ON COLUMN portal_sessions.absolute_expires_at IS 'when it ends however active it is';
COMMENT ON COLUMN portal_sessions.revoked_at IS 'when it was ended (sign-out, password change); NULL while valid';
COMMENT ON COLUMN portal_sessions.address IS 'the client address at sign-in';
COMMENT ON COLUMN portal_sessions.user_agent IS 'the browser''s User-Agent at sign-in';
COMMENT ON TABLE portal_login_failures IS 'Failed sign-ins, per name and address, for the sign-in limits; old rows are pruned.';
COMMENT ON COLUMN portal_login_failures.id IS 'the row''s id';
COMMENT ON COLUMN portal_login_failures.username IS 'the name tried';
COMMENT ON COLUMN portal_login_failures.address IS 'the client address';
COMMENT ON COLUMN portal_login_failures.failed_at IS 'when it failed';
COMMENT ON TABLE portal_access_denied IS 'Requests refused because the account is not the user''s (403/404), for review.';
COMMENT ON COLUMN portal_access_denied.id IS 'the row''s id';
COMMENT ON COLUMN portal_access_denied.at IS 'when';
COMMENT ON COLUMN portal_access_denied.user_id IS 'the signed-in user (portal_users.id)';
COMMENT ON COLUMN portal_access_denied.username IS 'the user''s name';
COMMENT ON COLUMN portal_access_denied.address IS 'the client address';
COMMENT ON COLUMN portal_access_denied.method IS 'the HTTP method';
COMMENT ON COLUMN portal_access_denied.path IS 'the path asked for';
COMMENT ON COLUMN portal_access_denied.account_uid IS 'the account asked for';
COMMENT ON COLUMN portal_access_denied.status IS 'the HTTP status answered (403 or 404)';
COMMENT ON TABLE portal_downloads IS 'Every portal download: who, what, when, and the SHA-256 of the bytes sent.';
COMMENT ON COLUMN portal_downloads.id IS 'the row''s id';
COMMENT ON COLUMN portal_downloads.at IS 'when the download started';
COMMENT ON COLUMN portal_downloads.user_id IS 'the user (portal_users.id)';
COMMENT ON COLUMN portal_downloads.username IS 'the user''s name';
COMMENT ON COLUMN portal_downloads.address IS 'the client address';
COMMENT ON COLUMN portal_downloads.account_uid IS 'the account downloaded';
COMMENT ON COLUMN portal_downloads.format IS 'the report format (native, koinly, ...) or gains';
COMMENT ON COLUMN portal_downloads.period_from IS 'the period''s first day';
COMMENT ON COLUMN portal_downloads.period_to IS 'the first day after the period';
COMMENT ON COLUMN portal_downloads.tz IS 'the zone the period is in';
COMMENT ON COLUMN portal_downloads.file IS 'the CSV''s name, or the zip''s';
COMMENT ON COLUMN portal_downloads.bytes IS 'how many bytes were sent';
COMMENT ON COLUMN portal_downloads.sha256 IS 'SHA-256 (hex) of the bytes sent';
COMMENT ON COLUMN portal_downloads.complete IS 'false when the browser went away before the last byte';

-- Views
COMMENT ON COLUMN ledger.account_uid IS 'the account whose balance changed; for an imported transaction its wallet name';
COMMENT ON COLUMN ledger.wallet IS 'spot, crossed_margin, isolated_margin, p2p, a futures product type (usdt_futures, ...; demo: susdt_futures, ...), or an imported wallet''s name';
COMMENT ON COLUMN ledger.coin IS 'the coin whose balance changed';
COMMENT ON COLUMN ledger.ts IS 'when the change happened (UTC)';
COMMENT ON COLUMN ledger.amount IS 'the signed change: > 0 the coin came in, < 0 it left; exact as the exchange sent it';
COMMENT ON COLUMN ledger.kind IS 'trade_buy, trade_sell, fee, deposit, withdrawal, transfer_in, transfer_out, borrow, repay, interest, liquidation_fee, compensate, confiscated, exchange_in, exchange_out, realized_pnl, funding_fee, or other (unclassified; in data_quality)';
COMMENT ON COLUMN ledger.source IS 'the table the row comes from (spot_fills, fees, deposits, withdrawals, transfers, margin_records, futures_bills, imported_transactions)';
COMMENT ON COLUMN ledger.source_id IS 'the record''s id in that table (trade_id, order_id, transfer_id, bill_id, margin_type/id, file_sha256:line)';
COMMENT ON COLUMN ledger.leg IS 'which part of the record: base, quote, fee:<seq>, amount, fee, from, to, sent, received';
COMMENT ON COLUMN ledger.order_id IS 'a reference id: the fill''s order, the deposit''s or withdrawal''s on-chain hash, the TxHash of an imported line';
COMMENT ON COLUMN ledger.symbol IS 'the pair or contract, where there is one';
COMMENT ON COLUMN ledger.counterparty IS 'the other side: an address or UID (deposits, withdrawals), the other account of a transfer';

COMMENT ON COLUMN balance_snapshots.account_uid IS 'the account';
COMMENT ON COLUMN balance_snapshots.wallet IS 'the ledger wallet (spot)';
COMMENT ON COLUMN balance_snapshots.coin IS 'the coin';
COMMENT ON COLUMN balance_snapshots.snapshot_at IS 'the time of the newest bill of the coin';
COMMENT ON COLUMN balance_snapshots.balance IS 'the exchange''s balance after that bill';
COMMENT ON COLUMN balance_snapshots.source IS 'where the figure comes from (spot_bills)';
COMMENT ON COLUMN futures_balance_snapshots.account_uid IS 'the account';
COMMENT ON COLUMN futures_balance_snapshots.wallet IS 'the ledger wallet (futures_wallet(product_type))';
COMMENT ON COLUMN futures_balance_snapshots.coin IS 'the margin coin';
COMMENT ON COLUMN futures_balance_snapshots.snapshot_at IS 'the time of the newest futures account snapshot';
COMMENT ON COLUMN futures_balance_snapshots.balance IS 'account_equity - unrealized_pl: the wallet''s balance without open positions'' PnL';
COMMENT ON COLUMN futures_balance_snapshots.source IS 'where the figure comes from (futures_account_snapshots)';

COMMENT ON COLUMN exchange_balance_series.account_uid IS 'the account';
COMMENT ON COLUMN exchange_balance_series.wallet IS 'the ledger wallet';
COMMENT ON COLUMN exchange_balance_series.coin IS 'the coin';
COMMENT ON COLUMN exchange_balance_series.ts IS 'the bill''s time';
COMMENT ON COLUMN exchange_balance_series.record_id IS 'the bill''s id';
COMMENT ON COLUMN exchange_balance_series.kind IS 'the bill''s business type';
COMMENT ON COLUMN exchange_balance_series.change IS 'the bill''s signed change of the balance (fee included)';
COMMENT ON COLUMN exchange_balance_series.balance IS 'the exchange''s balance after the bill';
COMMENT ON COLUMN exchange_balance_series.source IS 'spot_bills or futures_bills';

COMMENT ON COLUMN reconciliation_ledger.account_uid IS 'the account (an opening-balance line: the account its TxHash names)';
COMMENT ON COLUMN reconciliation_ledger.wallet IS 'the wallet (an opening-balance line: the wallet its TxHash names)';
COMMENT ON COLUMN reconciliation_ledger.coin IS 'as ledger.coin';
COMMENT ON COLUMN reconciliation_ledger.ts IS 'as ledger.ts';
COMMENT ON COLUMN reconciliation_ledger.amount IS 'as ledger.amount';
COMMENT ON COLUMN reconciliation_ledger.kind IS 'as ledger.kind';
COMMENT ON COLUMN reconciliation_ledger.source IS 'as ledger.source';
COMMENT ON COLUMN reconciliation_ledger.source_id IS 'as ledger.source_id';
COMMENT ON COLUMN reconciliation_ledger.leg IS 'as ledger.leg';

COMMENT ON COLUMN reconciliation_walk.account_uid IS 'the account';
COMMENT ON COLUMN reconciliation_walk.wallet IS 'the wallet';
COMMENT ON COLUMN reconciliation_walk.coin IS 'the coin';
COMMENT ON COLUMN reconciliation_walk.ts IS 'a time (one millisecond) at which a bill was written or the ledger moved';
COMMENT ON COLUMN reconciliation_walk.exchange_balance IS 'the exchange''s running balance at ts (the last bill''s balance)';
COMMENT ON COLUMN reconciliation_walk.ledger_balance IS 'the ledger''s running sum up to and including ts';
COMMENT ON COLUMN reconciliation_walk.gap IS 'exchange_balance - ledger_balance where a bill was written at ts; the first gap is the implied opening balance';
COMMENT ON COLUMN reconciliation_walk.record_source IS 'the source of the bill(s) at ts (spot_bills, futures_bills)';
COMMENT ON COLUMN reconciliation_walk.record_id IS 'the first bill''s id at ts';
COMMENT ON COLUMN reconciliation_walk.record_kind IS 'that bill''s business type';
COMMENT ON COLUMN reconciliation_walk.record_change IS 'that bill''s change';
COMMENT ON COLUMN reconciliation_walk.records IS 'how many bills were written at ts';
COMMENT ON COLUMN reconciliation_walk.ledger_change IS 'the ledger''s net change at ts';
COMMENT ON COLUMN reconciliation_walk.ledger_rows IS 'how many ledger rows are at ts';

COMMENT ON COLUMN reconciliation.account_uid IS 'the account (or imported wallet)';
COMMENT ON COLUMN reconciliation.wallet IS 'the wallet';
COMMENT ON COLUMN reconciliation.coin IS 'the coin';
COMMENT ON COLUMN reconciliation.snapshot_at IS 'the time of the exchange''s figure (newest bill or futures account snapshot)';
COMMENT ON COLUMN reconciliation.snapshot_source IS 'where the exchange''s figure comes from (spot_bills, futures_account_snapshots, futures_bills); NULL: none';
COMMENT ON COLUMN reconciliation.exchange_balance IS 'the exchange''s balance at snapshot_at';
COMMENT ON COLUMN reconciliation.ledger_balance IS 'the ledger''s sum up to snapshot_at (reconciliation_ledger)';
COMMENT ON COLUMN reconciliation.ledger_rows IS 'how many ledger rows that sum has';
COMMENT ON COLUMN reconciliation.difference IS 'exchange_balance - ledger_balance';
COMMENT ON COLUMN reconciliation.status IS 'match | opening_balance | unexplained | no_snapshot (docs/ledger.md#reconciliation)';
COMMENT ON COLUMN reconciliation.opening_balance IS 'opening_balance rows: the amount held before the first record read';
COMMENT ON COLUMN reconciliation.opening_at IS 'opening_balance rows: one minute before the first record, the date opening-balances.csv gives the line';
COMMENT ON COLUMN reconciliation.parted_at IS 'unexplained rows: the time of the first exchange record from which the running balances part and stay apart';
COMMENT ON COLUMN reconciliation.parted_source IS 'unexplained rows: that record''s table';
COMMENT ON COLUMN reconciliation.parted_record_id IS 'unexplained rows: that record''s id';
COMMENT ON COLUMN reconciliation.parted_kind IS 'unexplained rows: that record''s business type';
COMMENT ON COLUMN reconciliation.parted_change IS 'unexplained rows: that record''s change';
COMMENT ON COLUMN reconciliation.parted_exchange_balance IS 'unexplained rows: the exchange''s balance there';
COMMENT ON COLUMN reconciliation.parted_ledger_balance IS 'unexplained rows: the ledger''s balance there';
COMMENT ON COLUMN reconciliation.agreed_until IS 'unexplained rows: the last bill at which the balances still agreed (with the opening balance)';
COMMENT ON COLUMN reconciliation.explanation IS 'the row''s class in words, naming the record and figures';

COMMENT ON COLUMN data_quality.kind IS 'record (a stored row with problems), unclassified (a ledger row of kind other) or history_gap';
COMMENT ON COLUMN data_quality.source IS 'the table of the record (history_gap: the stream)';
COMMENT ON COLUMN data_quality.account_uid IS 'the account';
COMMENT ON COLUMN data_quality.record_id IS 'the record''s id in its table (product_type/id, margin_type/id, source_id/leg where one id is not unique); NULL for a gap';
COMMENT ON COLUMN data_quality.ts IS 'the record''s time, or the gap''s start';
COMMENT ON COLUMN data_quality.ts_to IS 'history_gap: the gap''s end (exclusive); NULL otherwise';
COMMENT ON COLUMN data_quality.problem IS 'what is wrong (one row per problem of a record)';

COMMENT ON COLUMN open_records.stream IS 'the stream that re-checks it';
COMMENT ON COLUMN open_records.source IS 'the table it is in';
COMMENT ON COLUMN open_records.account_uid IS 'the account';
COMMENT ON COLUMN open_records.record_id IS 'the record''s id in its table';
COMMENT ON COLUMN open_records.status IS 'its status, not final yet (pending, Processing, live, partially filled)';
COMMENT ON COLUMN open_records.since IS 'when the record was created';
COMMENT ON COLUMN open_records.partition_hint IS 'the request partition to ask it in, where the table does not say it (transfers: the from user)';
COMMENT ON COLUMN open_records.open_limit IS 'how long it may stay open before data-quality.csv flags it unsettled (3 days; 30 for orders)';

COMMENT ON COLUMN own_movement_imbalance.coin IS 'the coin';
COMMENT ON COLUMN own_movement_imbalance.net IS 'the sum of the own-account movement legs (0 when every movement''s two legs were read)';
COMMENT ON COLUMN own_movement_imbalance.legs IS 'how many legs';
COMMENT ON COLUMN own_movement_imbalance.first_ts IS 'the first leg''s time';
COMMENT ON COLUMN own_movement_imbalance.last_ts IS 'the last leg''s time';

COMMENT ON TABLE schema_migrations IS 'One row per applied sql/migrations/NNNN_name.sql file; written by tradeledger db migrate.';

-- The output columns of the two table functions analysts query. COMMENT ON COLUMN needs a
-- relation, and a function's RETURNS TABLE columns are none, so each function has a composite
-- type named <function>_columns with the same columns in the same order, carrying their
-- comments: \d+ ledger_valued_columns in psql shows them, docs/schema.md prints them under the
-- function, and test/db/columnComments.test.ts fails when a type and its function's columns part.
CREATE TYPE ledger_valued_columns AS (
  account_uid text, wallet text, coin text, ts timestamptz, amount numeric, kind text, source text, source_id text,
  leg text, order_id text, symbol text, counterparty text, fiat text, unit_price numeric, value numeric,
  price_source text, price_time timestamptz, stablecoin_basis text, fx_day date, demo boolean
);
COMMENT ON TYPE ledger_valued_columns IS 'The output columns of ledger_valued(...), with their meanings (a function''s columns take no COMMENT). Not a table: nothing is stored in it.';
COMMENT ON COLUMN ledger_valued_columns.account_uid IS 'as ledger.account_uid';
COMMENT ON COLUMN ledger_valued_columns.wallet IS 'as ledger.wallet';
COMMENT ON COLUMN ledger_valued_columns.coin IS 'as ledger.coin';
COMMENT ON COLUMN ledger_valued_columns.ts IS 'as ledger.ts';
COMMENT ON COLUMN ledger_valued_columns.amount IS 'as ledger.amount (signed, > 0 in)';
COMMENT ON COLUMN ledger_valued_columns.kind IS 'as ledger.kind';
COMMENT ON COLUMN ledger_valued_columns.source IS 'as ledger.source';
COMMENT ON COLUMN ledger_valued_columns.source_id IS 'as ledger.source_id';
COMMENT ON COLUMN ledger_valued_columns.leg IS 'as ledger.leg';
COMMENT ON COLUMN ledger_valued_columns.order_id IS 'as ledger.order_id';
COMMENT ON COLUMN ledger_valued_columns.symbol IS 'as ledger.symbol';
COMMENT ON COLUMN ledger_valued_columns.counterparty IS 'as ledger.counterparty';
COMMENT ON COLUMN ledger_valued_columns.fiat IS 'the currency asked for (upper case)';
COMMENT ON COLUMN ledger_valued_columns.unit_price IS 'fiat per unit of coin (value / amount); NULL when unpriced';
COMMENT ON COLUMN ledger_valued_columns.value IS 'the fiat value of amount, same sign as amount; NULL when unpriced';
COMMENT ON COLUMN ledger_valued_columns.price_source IS 'the rule that gave the value: demo, imported, fiat, fiat_quote, stablecoin_quote, fill_price, stablecoin, candle or unpriced (docs/valuation.md)';
COMMENT ON COLUMN ledger_valued_columns.price_time IS 'the open time of the 1h candle used, if a candle was used';
COMMENT ON COLUMN ledger_valued_columns.stablecoin_basis IS 'market (a stablecoin valued by its own candle) or par (at 1 USD), when a stablecoin was involved';
COMMENT ON COLUMN ledger_valued_columns.fx_day IS 'the day of the ECB rate used, if one was used';
COMMENT ON COLUMN ledger_valued_columns.demo IS 'true for a demo-trading row (only with p_include_demo; valued 0): as ledger.demo';

CREATE TYPE tax_transactions_columns AS (
  ts timestamptz, account_uid text, wallet text, kind text, source text, source_id text, sent_amount numeric,
  sent_coin text, received_amount numeric, received_coin text, fee_amount numeric, fee_coin text, ref text,
  symbol text, counterparty text, own_account boolean, demo boolean
);
COMMENT ON TYPE tax_transactions_columns IS 'The output columns of tax_transactions(...), with their meanings (a function''s columns take no COMMENT). Not a table: nothing is stored in it.';
COMMENT ON COLUMN tax_transactions_columns.ts IS 'when the transaction happened (a fill or withdrawal: its earliest ledger row)';
COMMENT ON COLUMN tax_transactions_columns.account_uid IS 'the account (an imported transaction: its wallet name)';
COMMENT ON COLUMN tax_transactions_columns.wallet IS 'the ledger wallet';
COMMENT ON COLUMN tax_transactions_columns.kind IS 'trade (a spot fill, or an imported line with both sides), withdrawal, deposit, fee (a fee not folded into its trade), or the ledger kind of any other row';
COMMENT ON COLUMN tax_transactions_columns.source IS 'as ledger.source';
COMMENT ON COLUMN tax_transactions_columns.source_id IS 'as ledger.source_id';
COMMENT ON COLUMN tax_transactions_columns.sent_amount IS 'what left the account (> 0), fees apart; NULL when nothing left';
COMMENT ON COLUMN tax_transactions_columns.sent_coin IS 'the coin of sent_amount';
COMMENT ON COLUMN tax_transactions_columns.received_amount IS 'what came in (>= 0); NULL when nothing came in';
COMMENT ON COLUMN tax_transactions_columns.received_coin IS 'the coin of received_amount';
COMMENT ON COLUMN tax_transactions_columns.fee_amount IS 'the fee folded into this row (> 0 paid) when the transaction has one single fee charge; other fees are rows of kind fee';
COMMENT ON COLUMN tax_transactions_columns.fee_coin IS 'the coin of fee_amount';
COMMENT ON COLUMN tax_transactions_columns.ref IS 'a reference id: ledger.order_id (the fill''s order, the on-chain hash, the TxHash)';
COMMENT ON COLUMN tax_transactions_columns.symbol IS 'the pair or contract, where there is one';
COMMENT ON COLUMN tax_transactions_columns.counterparty IS 'the other side: an address or UID, the other account of a transfer';
COMMENT ON COLUMN tax_transactions_columns.own_account IS 'true when both legs stay inside the accounts exported (docs/ledger.md#own-account-movements): not a trade or income';
COMMENT ON COLUMN tax_transactions_columns.demo IS 'true for a demo-trading row (only with p_include_demo): as ledger.demo';

-- ledger_valued's body comments cited moved migrations by short paths (sql/0050, sql/0061) for
-- the ledger view's branches. Only those comments change: the function's current text is read
-- from the catalog and recreated with them pointing at the ledger view's schema file, so
-- whatever a migration before this one made of the function is kept as it is.
DO $$
DECLARE
  def text;
  fixed text;
BEGIN
  FOR def IN SELECT pg_get_functiondef(p.oid) FROM pg_proc p
             WHERE p.pronamespace = 'public'::regnamespace AND p.proname = 'ledger_valued' LOOP
    fixed := replace(replace(def, 'branch (sql/0050)', 'branch (sql/schema/views/ledger.sql)'),
                     'demo column, sql/0061)', 'demo column, sql/schema/views/ledger.sql)');
    IF fixed <> def THEN
      EXECUTE fixed;
    END IF;
  END LOOP;
END
$$;
