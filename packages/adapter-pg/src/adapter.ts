/**
 * The Adapter on a node-postgres pool.
 *
 * @module adapter
 */
import type { AdapterAccount, AdapterAuthFactor, StrictAdapter } from "@portcullis/core/adapters"
import type { Pool, PoolClient, QueryConfig, QueryResultRow } from "pg"
import { PostgresAdapterError, explain, isUnmatchable } from "./errors.js"
import {
  ACCOUNT_COLUMNS,
  ACCOUNT_FIELDS,
  AUTH_FACTOR_COLUMNS,
  AUTHENTICATOR_COLUMNS,
  SESSION_COLUMNS,
  SESSION_RECORD_COLUMNS,
  USER_COLUMNS,
  USER_FIELDS,
  toAccount,
  toAuthFactor,
  toAuthenticator,
  toSession,
  toSessionRecord,
  toUser,
  toVerificationToken,
  userColumns,
} from "./rows.js"

/** What the adapter needs of a node-postgres `Pool`. */
/** The first key of the account locks' advisory locks ("refr"), apart from the migration's one-key lock. */
const ACCOUNT_LOCK = 0x72656672

export type PostgresPool = Pick<Pool, "query" | "connect">

/** The first key of the per-user advisory lock `replaceAuthFactors` takes ("mfa!"). */
const AUTH_FACTOR_LOCK = 0x6d666121

/** How often, at most, `useOnce` deletes expired keys (each instance on its own). */
const USED_KEYS_SWEEP_INTERVAL = 60_000
/** How many expired keys one sweep deletes at most, so no call waits on a long delete. */
const USED_KEYS_SWEEP_LIMIT = 500

type Queryable = Pick<Pool | PoolClient, "query">

/** Options of {@link PostgresAdapter}. */
export interface PostgresAdapterOptions {
  /**
   * How long one statement may wait for the database's answer, in milliseconds, before node-postgres
   * gives up on it (its `query_timeout`) and the connection is dropped from the pool. Default
   * 5000, as core's `storeTimeout`: a database that stops answering then holds neither the
   * request nor a pooled connection.
   */
  queryTimeout?: number
}

/** {@link PostgresAdapterOptions.queryTimeout}'s default. */
const DEFAULT_QUERY_TIMEOUT_MS = 5_000

/**
 * An Adapter that keeps users, accounts, sessions, verification tokens, WebAuthn
 * authenticators, session records, single-use keys and second factors in PostgreSQL, in the tables of Auth.js's
 * PostgreSQL adapter (`users`, `accounts`, `sessions`, `verification_token`) plus
 * `authenticators`, `session_records`, `used_keys`, `auth_factors` and `passwords`: an Auth.js database switches to it after
 * {@link migrate} adds what is new.
 *
 * Several instances may share one database: every write is a single statement or a
 * transaction (`createUserWithAccount` writes a first sign-in's user and account in one), and
 * unique keys decide races (see {@link PostgresAdapterError}). Ids come back as
 * strings whatever the id columns' type (SERIAL integers or UUIDs); an id the column cannot
 * hold is simply not found. The database assigns user ids: an `id` passed to `createUser` is
 * ignored. Users keep `name`, `email`, `emailVerified` and `image`; accounts keep the token
 * fields of the contract, and other fields are not stored.
 *
 * @param pool A node-postgres `Pool`, created once per process, with an `error` listener (see the example).
 * @param options `queryTimeout`: how long one statement may wait for an answer (default 5 s).
 * @returns Every method of the {@link StrictAdapter} contract.
 * @throws {RangeError} when `queryTimeout` is not a positive number.
 * @throws {PostgresAdapterError} from the methods: `Conflict` when a unique key is taken,
 * `MissingSchema` when tables are missing (run `migrate(pool)`), `NotFound` from `updateUser`,
 * `updateAuthenticatorCounter` and `setPasswordHash` for an unknown id. Other database errors (a statement past
 * `queryTimeout` among them) are thrown as they are.
 * @throws {TypeError} from `useAuthFactorStep` for a step that is not a non-negative integer, and
 * from `replaceAuthFactors` for a factor of another user or type, before the database sees either.
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { PostgresAdapter, migrate } from "@portcullis/adapter-pg"
 *
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5_000 })
 * // Without a listener, a connection the database drops while idle (a restart) ends the process.
 * pool.on("error", (error) => console.error("PostgreSQL dropped an idle connection:", error.message))
 * await migrate(pool)
 * const adapter = PostgresAdapter(pool)
 * ```
 */
export function PostgresAdapter(pool: PostgresPool, options: PostgresAdapterOptions = {}): Required<StrictAdapter> {
  const queryTimeout = options.queryTimeout ?? DEFAULT_QUERY_TIMEOUT_MS
  if (!Number.isFinite(queryTimeout) || queryTimeout <= 0) throw new RangeError(`PostgresAdapter(): \`queryTimeout\` must be a positive number of milliseconds, not ${String(queryTimeout)}.`)

  /** Runs one statement, turning what the database says into an error that says what to fix. */
  async function run<R extends QueryResultRow>(
    db: Queryable,
    method: string,
    sql: string,
    values: unknown[],
    taken = "a unique key is taken",
  ): Promise<R[]> {
    try {
      // node-postgres reads `query_timeout` from a statement's config too; its types leave it out.
      const statement: QueryConfig & { query_timeout: number } = { text: sql, values, query_timeout: queryTimeout }
      const result = await db.query<R>(statement)
      return result.rows
    } catch (error) {
      throw explain(error, method, taken)
    }
  }

  /** Like {@link run}, for lookups and deletes by key: a key no row can hold finds nothing. */
  async function find<R extends QueryResultRow>(method: string, sql: string, values: unknown[]): Promise<R[]> {
    try {
      return await run<R>(pool, method, sql, values)
    } catch (error) {
      if (isUnmatchable(error)) return []
      throw error
    }
  }

  async function transaction<T>(method: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect()
    try {
      await run(client, method, "BEGIN", [])
      const result = await work(client)
      await run(client, method, "COMMIT", [])
      return result
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  async function insertAccount(db: Queryable, method: string, account: AdapterAccount): Promise<AdapterAccount> {
    const columns = [`"userId"`, "provider", `"providerAccountId"`, ...ACCOUNT_FIELDS]
    const values = [account.userId, account.provider, account.providerAccountId, ...ACCOUNT_FIELDS.map((field) => account[field] ?? null)]
    const [row] = await run(
      db,
      method,
      `INSERT INTO accounts (${columns.join(", ")}) VALUES (${values.map((_, i) => `$${i + 1}`).join(", ")})
       RETURNING ${ACCOUNT_COLUMNS}`,
      values,
      `this ${account.provider} account is already linked to a user`,
    )
    return toAccount(required(row, method))
  }

  /** When this adapter last deleted expired single-use keys (0: not yet). */
  let lastUsedKeysSweep = 0

  return {
    async createUser(user) {
      const values = USER_FIELDS.map((field) => user[field] ?? null)
      const [row] = await run(
        pool,
        "createUser",
        `INSERT INTO users (name, email, "emailVerified", image) VALUES ($1, $2, $3, $4) RETURNING ${USER_COLUMNS}`,
        values,
        "another user has this email",
      )
      return toUser(required(row, "createUser"))
    },

    async createUserWithAccount(user, account) {
      return transaction("createUserWithAccount", async (client) => {
        const [row] = await run(
          client,
          "createUserWithAccount",
          `INSERT INTO users (name, email, "emailVerified", image) VALUES ($1, $2, $3, $4) RETURNING ${USER_COLUMNS}`,
          USER_FIELDS.map((field) => user[field] ?? null),
          "another user has this email",
        )
        const created = toUser(required(row, "createUserWithAccount"))
        await insertAccount(client, "createUserWithAccount", { ...account, userId: created.id })
        return created
      })
    },

    async getUser(id) {
      const [row] = await find("getUser", `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id])
      return row ? toUser(row) : null
    },

    async getUserByEmail(email) {
      const [row] = await find("getUserByEmail", `SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email])
      return row ? toUser(row) : null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const [row] = await find(
        "getUserByAccount",
        `SELECT ${userColumns("u.")} FROM users u JOIN accounts a ON a."userId" = u.id
         WHERE a.provider = $1 AND a."providerAccountId" = $2`,
        [provider, providerAccountId],
      )
      return row ? toUser(row) : null
    },

    async updateUser(patch) {
      // undefined means "unchanged"; null clears the column.
      const fields = USER_FIELDS.filter((field) => patch[field] !== undefined)
      const assignments = fields.map((field, i) => `"${field}" = $${i + 2}`)
      const sql =
        assignments.length === 0
          ? `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`
          : `UPDATE users SET ${assignments.join(", ")} WHERE id = $1 RETURNING ${USER_COLUMNS}`
      let rows: QueryResultRow[]
      try {
        rows = await run(pool, "updateUser", sql, [patch.id, ...fields.map((field) => patch[field])], "another user has this email")
      } catch (error) {
        if (!isUnmatchable(error)) throw error
        rows = []
      }
      const [row] = rows
      if (!row) throw new PostgresAdapterError("NotFound", "PostgresAdapter: updateUser(): no user has this id.")
      return toUser(row)
    },

    async deleteUser(userId) {
      try {
        return await transaction("deleteUser", async (client) => {
          // Databases made from Auth.js's schema have no foreign keys to cascade along.
          for (const table of ["accounts", "sessions", "authenticators", "session_records", "auth_factors", "passwords"]) {
            await run(client, "deleteUser", `DELETE FROM ${table} WHERE "userId" = $1`, [userId])
          }
          const [row] = await run(client, "deleteUser", `DELETE FROM users WHERE id = $1 RETURNING ${USER_COLUMNS}`, [userId])
          return row ? toUser(row) : null
        })
      } catch (error) {
        if (isUnmatchable(error)) return null
        throw error
      }
    },

    async linkAccount(account) {
      return insertAccount(pool, "linkAccount", account)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const [row] = await find(
        "unlinkAccount",
        `DELETE FROM accounts WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${ACCOUNT_COLUMNS}`,
        [provider, providerAccountId],
      )
      return row ? toAccount(row) : undefined
    },

    async getAccount(providerAccountId, provider) {
      const [row] = await find(
        "getAccount",
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`,
        [provider, providerAccountId],
      )
      return row ? toAccount(row) : null
    },

    async listAccountsByUserId(userId) {
      const rows = await find("listAccountsByUserId", `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE "userId" = $1`, [userId])
      return rows.map(toAccount)
    },

    async updateAccount(patch) {
      // Only the token columns: an account's key, owner and type never change.
      const fields = ACCOUNT_FIELDS.filter((field) => field !== "type" && Object.hasOwn(patch, field))
      if (fields.length === 0) {
        const [row] = await find("updateAccount", `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`, [patch.provider, patch.providerAccountId])
        return row ? toAccount(row) : null
      }
      const [row] = await find(
        "updateAccount",
        `UPDATE accounts SET ${fields.map((field, i) => `${field} = $${i + 3}`).join(", ")}
         WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${ACCOUNT_COLUMNS}`,
        [patch.provider, patch.providerAccountId, ...fields.map((field) => patch[field] ?? null)],
      )
      return row ? toAccount(row) : null
    },

    async withAccountLock(key, critical) {
      // A transaction-scoped advisory lock, not a row lock: getAccount and updateAccount run on
      // other connections inside the section and must not wait for it. It is released at COMMIT,
      // ROLLBACK, or when the connection dies with its holder.
      const client = await pool.connect()
      try {
        await run(client, "withAccountLock", "BEGIN", [])
        await run(client, "withAccountLock", "SELECT pg_advisory_xact_lock($1, hashtext($2))", [ACCOUNT_LOCK, `${key.provider} ${key.providerAccountId}`])
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined)
        client.release()
        throw error
      }
      try {
        return await critical()
      } finally {
        // A connection that cannot commit is broken: destroy it rather than return it to the pool.
        const broken = await client.query("COMMIT").then(
          () => false,
          () => true,
        )
        client.release(broken)
      }
    },

    async createSession({ sessionToken, userId, expires }) {
      const [row] = await run(
        pool,
        "createSession",
        `INSERT INTO sessions ("sessionToken", "userId", expires) VALUES ($1, $2, $3) RETURNING ${SESSION_COLUMNS}`,
        [sessionToken, userId, expires],
        "a session with this token exists",
      )
      return toSession(required(row, "createSession"))
    },

    async getSessionAndUser(sessionToken) {
      const [row] = await find(
        "getSessionAndUser",
        `SELECT s."sessionToken", s."userId", s.expires, ${userColumns("u.")}
         FROM sessions s JOIN users u ON u.id = s."userId" WHERE s."sessionToken" = $1`,
        [sessionToken],
      )
      if (!row) return null
      const session = toSession(row)
      if (hasExpired(session.expires)) {
        await find("getSessionAndUser", `DELETE FROM sessions WHERE "sessionToken" = $1 AND expires <= $2`, [sessionToken, new Date()])
        return null
      }
      return { session, user: toUser(row) }
    },

    async updateSession({ sessionToken, userId, expires }) {
      // An expired session is gone, even if this update would extend it.
      const [row] = await find(
        "updateSession",
        `UPDATE sessions SET expires = COALESCE($2, expires), "userId" = COALESCE($3, "userId")
         WHERE "sessionToken" = $1 AND expires > $4 RETURNING ${SESSION_COLUMNS}`,
        [sessionToken, expires ?? null, userId ?? null, new Date()],
      )
      return row ? toSession(row) : null
    },

    async deleteSession(sessionToken) {
      const [row] = await find("deleteSession", `DELETE FROM sessions WHERE "sessionToken" = $1 RETURNING ${SESSION_COLUMNS}`, [sessionToken])
      return row ? toSession(row) : null
    },

    async createVerificationToken({ identifier, token, expires }) {
      const [row] = await run(
        pool,
        "createVerificationToken",
        `INSERT INTO verification_token (identifier, token, expires) VALUES ($1, $2, $3) RETURNING identifier, token, expires`,
        [identifier, token, expires],
        "this verification token exists",
      )
      return toVerificationToken(required(row, "createVerificationToken"))
    },

    async useVerificationToken({ identifier, token }) {
      // One DELETE ... RETURNING: of two concurrent uses, only one gets the row.
      const [row] = await find(
        "useVerificationToken",
        `DELETE FROM verification_token WHERE identifier = $1 AND token = $2 RETURNING identifier, token, expires`,
        [identifier, token],
      )
      if (!row) return null
      const found = toVerificationToken(row)
      return hasExpired(found.expires) ? null : found
    },

    async deleteVerificationTokens(identifier) {
      const rows = await find("deleteVerificationTokens", `DELETE FROM verification_token WHERE identifier = $1 RETURNING 1`, [identifier])
      return rows.length
    },

    async createAuthenticator(authenticator) {
      const values = [
        authenticator.credentialID,
        authenticator.userId,
        authenticator.providerAccountId,
        authenticator.credentialPublicKey,
        authenticator.counter,
        authenticator.credentialDeviceType,
        authenticator.credentialBackedUp,
        authenticator.transports ?? null,
        authenticator.name ?? null,
        authenticator.aaguid ?? null,
        authenticator.createdAt ?? null,
        authenticator.lastUsedAt ?? null,
      ]
      const [row] = await run(
        pool,
        "createAuthenticator",
        `INSERT INTO authenticators (${AUTHENTICATOR_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${AUTHENTICATOR_COLUMNS}`,
        values,
        "a credential with this credentialID exists",
      )
      return toAuthenticator(required(row, "createAuthenticator"))
    },

    async getAuthenticator(credentialID) {
      const [row] = await find("getAuthenticator", `SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "credentialID" = $1`, [
        credentialID,
      ])
      return row ? toAuthenticator(row) : null
    },

    async listAuthenticatorsByUserId(userId) {
      const rows = await find("listAuthenticatorsByUserId", `SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "userId" = $1`, [userId])
      return rows.map(toAuthenticator)
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      if (!Number.isSafeInteger(newCounter) || newCounter < 0) {
        throw new TypeError("PostgresAdapter: updateAuthenticatorCounter(): newCounter must be a non-negative integer")
      }
      const [row] = await find(
        "updateAuthenticatorCounter",
        `UPDATE authenticators SET counter = $2 WHERE "credentialID" = $1 RETURNING ${AUTHENTICATOR_COLUMNS}`,
        [credentialID, newCounter],
      )
      if (!row) throw new PostgresAdapterError("NotFound", "PostgresAdapter: updateAuthenticatorCounter(): no credential has this credentialID.")
      return toAuthenticator(row)
    },

    async updateAuthenticator({ credentialID, name, lastUsedAt }) {
      // A field the call leaves out keeps its value; an explicit null name clears it.
      const [row] = await find(
        "updateAuthenticator",
        `UPDATE authenticators SET name = CASE WHEN $2 THEN $3 ELSE name END, "lastUsedAt" = COALESCE($4, "lastUsedAt") WHERE "credentialID" = $1 RETURNING ${AUTHENTICATOR_COLUMNS}`,
        [credentialID, name !== undefined, name ?? null, lastUsedAt ?? null],
      )
      return row ? toAuthenticator(row) : null
    },

    async deleteAuthenticator(credentialID) {
      const [row] = await find("deleteAuthenticator", `DELETE FROM authenticators WHERE "credentialID" = $1 RETURNING ${AUTHENTICATOR_COLUMNS}`, [credentialID])
      return row ? toAuthenticator(row) : null
    },

    async createSessionRecord(record) {
      const values = [
        record.id,
        record.userId,
        record.createdAt,
        record.lastSeenAt,
        record.expires,
        record.sessionToken ?? null,
        record.provider ?? null,
        record.providerSid ?? null,
        record.userAgent ?? null,
        record.revokedAt ?? null,
        record.clientAddress ?? null,
        record.signedInAt ?? null,
        record.authTime ?? null,
        record.authMethods ?? null,
      ]
      // No foreign key to users: a credentials sign-in the store does not keep gets a record too.
      const [row] = await run(
        pool,
        "createSessionRecord",
        `INSERT INTO session_records (${SESSION_RECORD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING ${SESSION_RECORD_COLUMNS}`,
        values,
        "a session record with this id exists",
      )
      return toSessionRecord(required(row, "createSessionRecord"))
    },

    async getSessionRecord(id) {
      const [row] = await find("getSessionRecord", `SELECT ${SESSION_RECORD_COLUMNS} FROM session_records WHERE id = $1`, [id])
      return row ? toSessionRecord(row) : null
    },

    async listSessionRecords(filter) {
      const [where, values] =
        "userId" in filter ? [`"userId" = $1`, [filter.userId]] : [`provider = $1 AND "providerSid" = $2`, [filter.provider, filter.providerSid]]
      const rows = await find("listSessionRecords", `SELECT ${SESSION_RECORD_COLUMNS} FROM session_records WHERE ${where} ORDER BY "createdAt", id`, values)
      return rows.map(toSessionRecord)
    },

    async updateSessionRecord({ id, lastSeenAt, expires, revokedAt, signedInAt, authTime, authMethods }) {
      // Only these columns; a field left out keeps its value, and revokedAt: null un-revokes.
      const [row] = await find(
        "updateSessionRecord",
        `UPDATE session_records SET "lastSeenAt" = COALESCE($2, "lastSeenAt"), expires = COALESCE($3, expires),
         "revokedAt" = CASE WHEN $4 THEN $5 ELSE "revokedAt" END, "signedInAt" = COALESCE($6, "signedInAt"),
         "authTime" = COALESCE($7, "authTime"), "authMethods" = COALESCE($8::text[], "authMethods") WHERE id = $1 RETURNING ${SESSION_RECORD_COLUMNS}`,
        [id, lastSeenAt ?? null, expires ?? null, revokedAt !== undefined, revokedAt ?? null, signedInAt ?? null, authTime ?? null, authMethods ?? null],
      )
      return row ? toSessionRecord(row) : null
    },

    async useOnce(key, expires) {
      const now = new Date()
      // One statement: a new key is inserted, an expired one taken over, an unexpired one left
      // alone (no row returned). Concurrent callers of one key wait on its row, then see it kept.
      // A key no row can hold (a NUL byte) finds nothing, so it answers false: refused as used.
      const rows = await find(
        "useOnce",
        `INSERT INTO used_keys (key, expires) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET expires = EXCLUDED.expires WHERE used_keys.expires <= $3
         RETURNING key`,
        [key, expires, now],
      )
      if (now.getTime() - lastUsedKeysSweep >= USED_KEYS_SWEEP_INTERVAL) {
        lastUsedKeysSweep = now.getTime()
        // SKIP LOCKED: instances sweeping at once take different rows, and none waits on a key in use.
        await run(
          pool,
          "useOnce",
          `DELETE FROM used_keys WHERE key IN (SELECT key FROM used_keys WHERE expires <= $1 LIMIT ${USED_KEYS_SWEEP_LIMIT} FOR UPDATE SKIP LOCKED)`,
          [now],
        )
      }
      return rows.length === 1
    },

    async getPasswordHash(userId) {
      const [row] = await find<{ hash: string }>("getPasswordHash", `SELECT hash FROM passwords WHERE "userId" = $1`, [userId])
      return row?.hash ?? null
    },

    async setPasswordHash(userId, hash) {
      // One statement: the user must exist, and of concurrent sets one hash remains whole.
      const rows = await find(
        "setPasswordHash",
        `INSERT INTO passwords ("userId", hash) SELECT id::text, $2 FROM users WHERE id = $1
         ON CONFLICT ("userId") DO UPDATE SET hash = EXCLUDED.hash RETURNING "userId"`,
        [userId, hash],
      )
      if (rows.length === 0) throw new PostgresAdapterError("NotFound", "PostgresAdapter: setPasswordHash(): no user has this id.")
    },

    async createAuthFactor(factor) {
      // No foreign key to users, as for session records: a credentials user the store does not keep may enrol too.
      const [row] = await run(
        pool,
        "createAuthFactor",
        `INSERT INTO auth_factors (${AUTH_FACTOR_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${AUTH_FACTOR_COLUMNS}`,
        authFactorValues(factor, "createAuthFactor"),
        "a factor with this id exists",
      )
      return toAuthFactor(required(row, "createAuthFactor"))
    },

    async listAuthFactors(userId) {
      const rows = await find("listAuthFactors", `SELECT ${AUTH_FACTOR_COLUMNS} FROM auth_factors WHERE "userId" = $1 ORDER BY "createdAt", id`, [userId])
      return rows.map(toAuthFactor)
    },

    async updateAuthFactor({ id, confirmedAt, lockedAt }) {
      // Only these two columns; a field left out keeps its value, and null clears it.
      const [row] = await find(
        "updateAuthFactor",
        `UPDATE auth_factors SET "confirmedAt" = CASE WHEN $2 THEN $3 ELSE "confirmedAt" END, "lockedAt" = CASE WHEN $4 THEN $5 ELSE "lockedAt" END
         WHERE id = $1 RETURNING ${AUTH_FACTOR_COLUMNS}`,
        [id, confirmedAt !== undefined, confirmedAt ?? null, lockedAt !== undefined, lockedAt ?? null],
      )
      return row ? toAuthFactor(row) : null
    },

    async deleteAuthFactor(id) {
      // DELETE ... RETURNING: of concurrent deletes, only the one that removed the row gets it back.
      const rows = await find("deleteAuthFactor", `DELETE FROM auth_factors WHERE id = $1 RETURNING id`, [id])
      return rows.length === 1
    },

    async useAuthFactorStep(id, step) {
      requireStep(step, "useAuthFactorStep")
      // One statement: concurrent callers queue on the row, and each re-reads "lastUsedStep" once
      // the one before it committed, so a step is accepted once and never after a later one.
      const rows = await find(
        "useAuthFactorStep",
        `UPDATE auth_factors SET "lastUsedStep" = $2, failures = 0 WHERE id = $1 AND ("lastUsedStep" IS NULL OR "lastUsedStep" < $2) RETURNING id`,
        [id, step],
      )
      return rows.length === 1
    },

    async countAuthFactorFailure(id) {
      const [row] = await find("countAuthFactorFailure", `UPDATE auth_factors SET failures = failures + 1 WHERE id = $1 RETURNING failures`, [id])
      return row ? Number(row.failures) : 0
    },

    async replaceAuthFactors(userId, type, factors) {
      const values = factors.map((factor) => {
        if (factor.userId !== userId || factor.type !== type) {
          throw new TypeError(`PostgresAdapter: replaceAuthFactors(): every factor must be of the user and type replaced (${type})`)
        }
        return authFactorValues(factor, "replaceAuthFactors")
      })
      await transaction("replaceAuthFactors", async (client) => {
        // Concurrent replaces of one user's factors take turns, so each DELETE sees the rows the
        // one before it stored and exactly one call's factors remain.
        await run(client, "replaceAuthFactors", "SELECT pg_advisory_xact_lock($1, hashtext($2))", [AUTH_FACTOR_LOCK, userId])
        await run(client, "replaceAuthFactors", `DELETE FROM auth_factors WHERE "userId" = $1 AND type = $2`, [userId, type])
        if (values.length === 0) return
        const width = values[0]?.length ?? 0
        const tuples = values.map((_, row) => `(${Array.from({ length: width }, (_, column) => `$${row * width + column + 1}`).join(", ")})`)
        await run(client, "replaceAuthFactors", `INSERT INTO auth_factors (${AUTH_FACTOR_COLUMNS}) VALUES ${tuples.join(", ")}`, values.flat(), "a factor with this id exists")
      })
    },
  }
}

/** A factor's values in {@link AUTH_FACTOR_COLUMNS}' order, its optional fields as their defaults. */
function authFactorValues(factor: AdapterAuthFactor, method: string): unknown[] {
  if (factor.lastUsedStep != null) requireStep(factor.lastUsedStep, method)
  return [
    factor.id,
    factor.userId,
    factor.type,
    factor.secret,
    factor.createdAt,
    factor.confirmedAt ?? null,
    factor.lastUsedStep ?? null,
    factor.failures ?? 0,
    factor.lockedAt ?? null,
  ]
}

/** A TOTP time step, checked before the database sees it: never a fraction, a negative or a string. */
function requireStep(step: unknown, method: string): void {
  if (!Number.isSafeInteger(step) || (step as number) < 0) throw new TypeError(`PostgresAdapter: ${method}(): step must be a non-negative integer`)
}

function hasExpired(expires: Date): boolean {
  return expires.getTime() <= Date.now()
}

/** The row an INSERT ... RETURNING always returns. */
function required(row: QueryResultRow | undefined, method: string): QueryResultRow {
  if (row === undefined) throw new Error(`PostgresAdapter: ${method}(): the database returned no row`)
  return row
}
