-- The snapshot tables without a `problems` column get one, so every loaded row can carry the
-- data-quality problems found while typing it, like the history tables do.
ALTER TABLE sub_account_snapshots ADD COLUMN problems text[] NOT NULL DEFAULT '{}';
ALTER TABLE sub_account_api_key_snapshots ADD COLUMN problems text[] NOT NULL DEFAULT '{}';
ALTER TABLE contract_snapshots ADD COLUMN problems text[] NOT NULL DEFAULT '{}';
