-- @portcullis/adapter-pg: the tables of Auth.js's PostgreSQL adapter, plus what it lacks
-- (OAuth 1.0a tokens on accounts, WebAuthn authenticators, session records and single-use keys,
-- second factors, the unique keys that make concurrent first sign-ins safe).
--
-- Idempotent: apply it to an empty database, again, or to a database made from Auth.js's
-- documented schema (its SERIAL integer ids, or UUID ids): only what is missing is added.
-- `migrate(pool)` runs this file in one transaction, under an advisory lock.
--
-- Tables made here get foreign keys that delete a user's accounts, sessions, authenticators and session records
-- with the user; the adapter also deletes them itself, for databases made without them.

CREATE TABLE IF NOT EXISTS users (
  id SERIAL PRIMARY KEY,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT
);

CREATE TABLE IF NOT EXISTS accounts (
  id SERIAL PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT
);

-- OAuth 1.0a accounts (Twitter/X v1) keep a token and a signing secret instead.
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS oauth_token TEXT;
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS oauth_token_secret TEXT;
-- When the refresh token stops working (seconds since the epoch), from `refresh_token_expires_in`.
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS refresh_token_expires_at BIGINT;

CREATE TABLE IF NOT EXISTS sessions (
  id SERIAL PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL
);

CREATE TABLE IF NOT EXISTS verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);

-- A WebAuthn credential's "userId" has the type of users.id, whatever the database uses.
DO $$
BEGIN
  EXECUTE format(
    'CREATE TABLE IF NOT EXISTS authenticators (
      "credentialID" TEXT PRIMARY KEY,
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      "providerAccountId" TEXT NOT NULL,
      "credentialPublicKey" TEXT NOT NULL,
      counter BIGINT NOT NULL,
      "credentialDeviceType" TEXT NOT NULL,
      "credentialBackedUp" BOOLEAN NOT NULL,
      transports TEXT
    )',
    (SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'users'::regclass AND attname = 'id')
  );
END
$$;

-- Passkey management (a name, the authenticator model, when it was made and last used): added
-- to authenticators tables that earlier versions created as well.
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS name TEXT;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS aaguid TEXT;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "createdAt" TIMESTAMPTZ;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" TIMESTAMPTZ;

-- Session records: one per sign-in, whatever the session strategy, so every instance can end a
-- session (back-channel logout, the user's list of devices). Not an Auth.js table. "userId" has
-- the type of users.id, as for authenticators.
DO $$
BEGIN
  EXECUTE format(
    'CREATE TABLE IF NOT EXISTS session_records (
      id TEXT PRIMARY KEY,
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      "createdAt" TIMESTAMPTZ NOT NULL,
      "lastSeenAt" TIMESTAMPTZ NOT NULL,
      expires TIMESTAMPTZ NOT NULL,
      "sessionToken" TEXT,
      provider TEXT,
      "providerSid" TEXT,
      "userAgent" TEXT,
      "revokedAt" TIMESTAMPTZ
    )',
    (SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'users'::regclass AND attname = 'id')
  );
END
$$;

-- Single-use keys (a logout token's jti), each kept until it expires: useOnce stores a key with
-- one INSERT ... ON CONFLICT, so of two instances using one key at once only one succeeds.
CREATE TABLE IF NOT EXISTS used_keys (
  key TEXT PRIMARY KEY,
  expires TIMESTAMPTZ NOT NULL
);

-- Second factors (`mfa`): a TOTP authenticator or one backup code per row. Not an Auth.js table.
-- "userId" is text without a foreign key, as for session records (a credentials user the store
-- does not keep may enrol too). `secret` holds what core hands over already sealed (a TOTP
-- secret) or hashed (a backup code): never a value in the clear. "lastUsedStep" and failures
-- change in single statements, so a TOTP step counts once and every wrong code is counted,
-- whichever instance sees it.
CREATE TABLE IF NOT EXISTS auth_factors (
  id TEXT PRIMARY KEY,
  "userId" TEXT NOT NULL,
  type TEXT NOT NULL,
  secret TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ NOT NULL,
  "confirmedAt" TIMESTAMPTZ,
  "lastUsedStep" BIGINT,
  failures INTEGER NOT NULL DEFAULT 0,
  "lockedAt" TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS auth_factors_user_id_idx ON auth_factors ("userId", type);

-- Password hashes (`Password()`): one row per user, apart from the users table so that no user
-- read carries one. Not an Auth.js table. `hash` is the PHC string core made (scrypt, salted):
-- never a password in the clear. "userId" is text without a foreign key, as for the tables above
-- (an Auth.js database's user ids may be SERIAL or UUID); deleteUser deletes the row with the user.
CREATE TABLE IF NOT EXISTS passwords (
  "userId" TEXT PRIMARY KEY,
  hash TEXT NOT NULL
);

-- One user per email and one link per provider account, even when two instances handle the
-- same person's first sign-in at once: the loser's insert fails instead of duplicating.
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_provider_account_key ON accounts (provider, "providerAccountId");
CREATE UNIQUE INDEX IF NOT EXISTS sessions_session_token_key ON sessions ("sessionToken");

-- deleteUser, listAuthenticatorsByUserId and sweepExpired read by these.
CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts ("userId");
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions ("userId");
CREATE INDEX IF NOT EXISTS sessions_expires_idx ON sessions (expires);
CREATE INDEX IF NOT EXISTS verification_token_expires_idx ON verification_token (expires);
CREATE INDEX IF NOT EXISTS authenticators_user_id_idx ON authenticators ("userId");
-- listSessionRecords reads by user and by provider session; sweeps read by expiry.
CREATE INDEX IF NOT EXISTS session_records_user_id_idx ON session_records ("userId");
CREATE INDEX IF NOT EXISTS session_records_provider_sid_idx ON session_records (provider, "providerSid");
CREATE INDEX IF NOT EXISTS session_records_expires_idx ON session_records (expires);
CREATE INDEX IF NOT EXISTS used_keys_expires_idx ON used_keys (expires);

-- Abuse limits' counters (`postgresRateLimitStore`, core's `rateLimit.store`): one row per key,
-- counted in a fixed window that ends at reset_at. Keys are short (longer ones are stored as
-- their hash); rows whose window ended are deleted as the store goes.
CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT PRIMARY KEY CHECK (char_length(key) <= 255),
  count BIGINT NOT NULL,
  reset_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_limits_reset_at_idx ON rate_limits (reset_at);

-- Listing and ending sessions (issue 28): every sign-in gets a session record, a credentials user
-- the store does not keep included (its id may be anything its `authorize` answered). So records
-- are no longer tied to users by a foreign key: "userId" becomes text, matched by value, and
-- deleteUser deletes a user's records itself. Earlier statements are kept as they were; this
-- undoes their foreign key on databases they made, and is a no-op once done.
DO $$
DECLARE
  fk record;
BEGIN
  FOR fk IN
    SELECT conname FROM pg_constraint WHERE conrelid = 'session_records'::regclass AND contype = 'f'
  LOOP
    EXECUTE format('ALTER TABLE session_records DROP CONSTRAINT %I', fk.conname);
  END LOOP;
  IF (SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'session_records'::regclass AND attname = 'userId') <> 'text' THEN
    ALTER TABLE session_records ALTER COLUMN "userId" TYPE TEXT USING "userId"::text;
  END IF;
END
$$;
-- The client's address at sign-in, when the app resolves one: shown in the user's list of sessions.
ALTER TABLE session_records ADD COLUMN IF NOT EXISTS "clientAddress" TEXT;
-- A database session's assurance (issue 37), on its record: when it began (never moves), when
-- its user last authenticated, and how ("fed", "pwd", "otp", "mfa"...). NULL on records written
-- before: core fills them on the session's first read after the upgrade.
ALTER TABLE session_records ADD COLUMN IF NOT EXISTS "signedInAt" TIMESTAMPTZ;
ALTER TABLE session_records ADD COLUMN IF NOT EXISTS "authTime" TIMESTAMPTZ;
ALTER TABLE session_records ADD COLUMN IF NOT EXISTS "authMethods" TEXT[];
