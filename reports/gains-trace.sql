-- gains-trace: every ledger row behind a gains run's matches, with the raw exchange (or imported)
-- record it came from: the way from any gains.csv row back to its sources (docs/gains.md).
-- Parameters (psql: -v run_id=1): run_id   gains_runs.run_id
-- Columns: seq (gains_matches.seq), asset, matching, side (disposal / acquisition), ts, account_uid,
--   wallet, kind, amount, coin, source, source_id, leg, raw (jsonb)
SELECT m.seq, m.asset, m.basis AS matching, r.side, l.ts, l.account_uid, l.wallet, l.kind, l.amount, l.coin,
       r.source, r.source_id, r.leg,
       coalesce(f.raw, i.raw, d.raw, w.raw, mr.raw, b.raw, t.raw) AS raw
FROM gains_matches m
JOIN gains_match_rows r ON r.run_id = m.run_id AND r.seq = m.seq
JOIN ledger l ON l.source = r.source AND l.source_id = r.source_id AND l.leg = r.leg
LEFT JOIN spot_fills f ON r.source = 'spot_fills' AND f.account_uid = l.account_uid AND f.trade_id = r.source_id
LEFT JOIN imported_transactions i ON r.source = 'imported_transactions' AND i.source_id = r.source_id
LEFT JOIN deposits d ON r.source = 'deposits' AND d.account_uid = l.account_uid AND d.order_id = r.source_id
LEFT JOIN withdrawals w ON r.source = 'withdrawals' AND w.account_uid = l.account_uid AND w.order_id = r.source_id
LEFT JOIN margin_records mr ON r.source = 'margin_records' AND mr.account_uid = l.account_uid AND mr.id = r.source_id
LEFT JOIN futures_bills b ON r.source = 'futures_bills' AND b.account_uid = l.account_uid AND b.bill_id = r.source_id
LEFT JOIN LATERAL (SELECT x.raw FROM transfers x WHERE r.source = 'transfers' AND x.transfer_id = r.source_id LIMIT 1) t ON true
WHERE m.run_id = (:'run_id')::bigint
ORDER BY m.seq, r.side, r.source, r.source_id, r.leg;
