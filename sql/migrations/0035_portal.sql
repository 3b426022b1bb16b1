-- The accountants' portal (`tradeledger serve`): its users, what each may see, their sessions,
-- failed logins (for rate limits), refused requests and an audit of every download.
-- Nothing here holds a secret in the clear: passwords are scrypt hashes, session tokens SHA-256
-- hashes (the token itself lives only in the browser's cookie).

CREATE TABLE portal_users (
  id            bigserial PRIMARY KEY,
  username      text        NOT NULL UNIQUE CHECK (username ~ '^[A-Za-z0-9._@-]{1,64}$'),
  -- scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>
  password_hash text        NOT NULL,
  -- admin sees every account; accountant only those in portal_grants
  role          text        NOT NULL CHECK (role IN ('admin', 'accountant')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);
-- Sign-in ignores case, so two names differing only in case would be ambiguous.
CREATE UNIQUE INDEX portal_users_name_ci ON portal_users (lower(username));

-- An accountant's accounts: exchange UIDs (accounts.uid) or imported wallet ids. No foreign key,
-- so a grant can be made before the account's first sync or import.
CREATE TABLE portal_grants (
  user_id     bigint      NOT NULL REFERENCES portal_users (id) ON DELETE CASCADE,
  account_uid text        NOT NULL,
  granted_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, account_uid)
);

CREATE TABLE portal_sessions (
  id           bigserial PRIMARY KEY,
  -- SHA-256 of the random token in the cookie
  token_hash   bytea       NOT NULL UNIQUE,
  user_id      bigint      NOT NULL REFERENCES portal_users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- idle and absolute limits both end a session; the earlier of the two is kept here
  expires_at   timestamptz NOT NULL,
  absolute_expires_at timestamptz NOT NULL,
  revoked_at   timestamptz,
  address      text,
  user_agent   text
);
CREATE INDEX portal_sessions_user ON portal_sessions (user_id);

-- Failed logins, per user name and per address, for the rate limits. Old rows are pruned.
CREATE TABLE portal_login_failures (
  id         bigserial PRIMARY KEY,
  username   text        NOT NULL,
  address    text        NOT NULL,
  failed_at  timestamptz NOT NULL
);
CREATE INDEX portal_login_failures_user ON portal_login_failures (username, failed_at);
CREATE INDEX portal_login_failures_address ON portal_login_failures (address, failed_at);

-- Requests refused because the account is not the user's (403/404), for review.
CREATE TABLE portal_access_denied (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL,
  user_id     bigint,
  username    text,
  address     text,
  method      text        NOT NULL,
  path        text        NOT NULL,
  account_uid text,
  status      int         NOT NULL
);

-- Every download: who, what, when, and the SHA-256 of the bytes sent.
CREATE TABLE portal_downloads (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL,
  user_id     bigint      NOT NULL,
  username    text        NOT NULL,
  address     text,
  account_uid text        NOT NULL,
  format      text        NOT NULL,
  period_from date        NOT NULL,
  period_to   date        NOT NULL,
  tz          text        NOT NULL,
  -- a CSV's name, or the zip's
  file        text        NOT NULL,
  bytes       bigint      NOT NULL,
  sha256      text        NOT NULL,
  -- false when the browser went away before the last byte
  complete    boolean     NOT NULL
);
CREATE INDEX portal_downloads_at ON portal_downloads (at);
