-- 0065: the figures a return asks for (issue 22, docs/gains.md).
--   disposal_costs  the incidental costs of the disposal (fees) behind a match, already taken off
--                   `proceeds`. UK SA108 wants gross proceeds with these costs among the allowable
--                   costs (HMRC HS284 Example 3); Canada's Schedule 3 shows them as "outlays and
--                   expenses". gross proceeds = proceeds + disposal_costs.
--   denied_loss     Canada: the part of a loss denied as a superficial loss (Income Tax Act s. 54,
--                   40(2)(g)(i)) and added to the cost of the substituted property (53(1)(f));
--                   `gain` already includes it, so gain = proceeds - cost + denied_loss.
ALTER TABLE gains_matches
  ADD COLUMN disposal_costs numeric NOT NULL DEFAULT 0 CHECK (disposal_costs >= 0),
  ADD COLUMN denied_loss    numeric NOT NULL DEFAULT 0 CHECK (denied_loss >= 0);

COMMENT ON COLUMN gains_matches.disposal_costs IS 'Incidental costs of disposal (fees) behind the match, already off proceeds; gross proceeds = proceeds + disposal_costs.';
COMMENT ON COLUMN gains_matches.denied_loss IS 'Canada: loss denied as a superficial loss (ITA s. 54, 40(2)(g)(i)), added to the substituted property''s cost (53(1)(f)); gain includes it.';
COMMENT ON COLUMN gains_matches.holding_days IS 'Days from acquisition to disposal; NULL for a pool share and for an acquisition after the disposal (UK 30-day rule).';
