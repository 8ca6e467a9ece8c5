import { readFile } from "node:fs/promises"
import pg from "pg"
import { describe, expect, inject, it } from "vitest"
import { PostgresAdapter, PostgresAdapterError, SCHEMA_URL, migrate, sweepExpired } from "../src/index.js"
import { authJsSchema, useDatabase } from "./databases.js"
import { createDatabase } from "./postgres.js"

const HOUR = 3_600_000

/** Tables, columns and indexes, to compare a schema before and after a second migrate(). */
async function describeSchema(pool: pg.Pool): Promise<unknown[]> {
  const { rows } = await pool.query<Record<string, string>>(`
    SELECT table_name AS name, column_name AS detail, data_type AS type FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
    ORDER BY 1, 2`)
  return rows
}

describe("migrate", () => {
  const pool = useDatabase("schema_migrate")

  it("creates the tables, and a second run changes nothing", async () => {
    await migrate(pool())
    const first = await describeSchema(pool())
    await migrate(pool())
    expect(await describeSchema(pool())).toEqual(first)
    const tables = new Set(first.map((row) => (row as { name: string }).name))
    expect([...tables].sort()).toEqual(["accounts", "auth_factors", "authenticators", "passwords", "rate_limits", "session_records", "sessions", "used_keys", "users", "verification_token"])
  })

  it("runs from several instances at once", async () => {
    await Promise.all([migrate(pool()), migrate(pool()), migrate(pool())])
    expect(await PostgresAdapter(pool()).getUser("1")).toBeNull()
  })

  it("is the SQL file the package ships", async () => {
    const sql = await readFile(SCHEMA_URL, "utf8")
    expect(sql).toContain("CREATE TABLE IF NOT EXISTS users")
    // Nothing that holds data is dropped (a foreign key is, once: session records outlive it).
    expect(sql).not.toMatch(/\bDROP\s+(TABLE|COLUMN|INDEX|SCHEMA|DATABASE)\b/i)
    expect(sql.match(/\bDROP\b/gi)).toHaveLength(1)
  })
})

describe("migrate on a database made from Auth.js's PostgreSQL adapter schema", () => {
  const pool = useDatabase("schema_authjs", async (created) => {
    await created.query(authJsSchema("serial"))
    const { rows } = await created.query<{ id: number }>(
      `INSERT INTO users (name, email, "emailVerified") VALUES ('Ada', 'ada@example.com', now()) RETURNING id`,
    )
    const userId = rows[0]?.id
    await created.query(
      `INSERT INTO accounts ("userId", type, provider, "providerAccountId", access_token, expires_at) VALUES ($1, 'oauth', 'github', '42', 'at', 1700000000)`,
      [userId],
    )
    await created.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES ($1, now() + interval '1 day', 'old-session')`, [userId])
  })

  it("keeps the data, and the adapter reads it with string ids", async () => {
    await migrate(pool())
    await migrate(pool())
    const adapter = PostgresAdapter(pool())
    const user = await adapter.getUserByAccount({ provider: "github", providerAccountId: "42" })
    expect(user).toMatchObject({ name: "Ada", email: "ada@example.com" })
    expect(typeof user?.id).toBe("string")
    expect(await adapter.getAccount("42", "github")).toEqual({
      userId: user?.id,
      type: "oauth",
      provider: "github",
      providerAccountId: "42",
      access_token: "at",
      expires_at: 1700000000,
    })
    expect(await adapter.getSessionAndUser("old-session")).toMatchObject({ session: { userId: user?.id }, user: { id: user?.id } })
  })

  it("adds the unique keys that stop a second user with the same email", async () => {
    await migrate(pool())
    const adapter = PostgresAdapter(pool())
    const taken = adapter.createUser({ email: "ada@example.com", emailVerified: null })
    await expect(taken).rejects.toBeInstanceOf(PostgresAdapterError)
    await expect(taken).rejects.toMatchObject({ reason: "Conflict", code: "AdapterError", message: /another user has this email/ })
  })

  it("adds session records whose userId is text without a foreign key (credentials users the store does not keep), and the indexes the lists read", async () => {
    await migrate(pool())
    const { rows } = await pool().query<{ type: string }>(
      `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'session_records'::regclass AND attname IN ('userId', 'clientAddress') ORDER BY attname`,
    )
    expect(rows).toEqual([{ type: "text" }, { type: "text" }])
    const keys = await pool().query(`SELECT conname FROM pg_constraint WHERE conrelid = 'session_records'::regclass AND contype = 'f'`)
    expect(keys.rows).toEqual([])
    const indexes = await pool().query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'session_records' ORDER BY indexname`)
    expect(indexes.rows.map((row) => row.indexdef)).toEqual(
      expect.arrayContaining([expect.stringContaining(`(provider, "providerSid")`), expect.stringContaining(`("userId")`)]),
    )
    const adapter = PostgresAdapter(pool())
    const user = await adapter.getUserByEmail("ada@example.com")
    if (!user) throw new Error("the seeded user is gone")
    const now = new Date()
    const record = { id: "r1", userId: user.id, createdAt: now, lastSeenAt: now, expires: new Date(now.getTime() + HOUR), sessionToken: "old-session" }
    expect(await adapter.createSessionRecord(record)).toMatchObject({ ...record, provider: null, clientAddress: null, revokedAt: null })
    const stranger = { ...record, id: "r2", userId: "user-ada", sessionToken: null }
    expect(await adapter.createSessionRecord(stranger)).toMatchObject(stranger)
    expect(await adapter.listSessionRecords({ userId: "user-ada" })).toEqual([expect.objectContaining({ id: "r2" })])
    await pool().query(`DELETE FROM session_records`)
  })

  it("deletes a user's rows though the old tables have no foreign keys", async () => {
    await migrate(pool())
    const adapter = PostgresAdapter(pool())
    const user = await adapter.getUserByEmail("ada@example.com")
    if (!user) throw new Error("the seeded user is gone")
    await adapter.deleteUser(user.id)
    const { rows } = await pool().query(`SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM sessions) AS sessions`)
    expect(rows[0]).toEqual({ accounts: "0", sessions: "0" })
  })
})

describe("migrate on a database the previous version (0.1.0) migrated", () => {
  const pool = useDatabase("schema_upgrade", async (created) => {
    await created.query(await readFile(new URL("./fixtures/schema-0.1.0.sql", import.meta.url), "utf8"))
    await created.query(`INSERT INTO users (name, email) VALUES ('Ada', 'ada@example.com')`)
    await created.query(`INSERT INTO session_records (id, "userId", "createdAt", "lastSeenAt", expires) VALUES ('r1', '1', now(), now(), now() + interval '1 hour')`)
  })

  it("adds auth_factors, with text user ids, no foreign key and the index listAuthFactors reads, and keeps the data", async () => {
    await migrate(pool())
    const { rows } = await pool().query<{ name: string; type: string; nullable: string }>(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_name = 'auth_factors' ORDER BY ordinal_position`,
    )
    expect(rows).toEqual([
      { name: "id", type: "text", nullable: "NO" },
      { name: "userId", type: "text", nullable: "NO" },
      { name: "type", type: "text", nullable: "NO" },
      { name: "secret", type: "text", nullable: "NO" },
      { name: "createdAt", type: "timestamp with time zone", nullable: "NO" },
      { name: "confirmedAt", type: "timestamp with time zone", nullable: "YES" },
      { name: "lastUsedStep", type: "bigint", nullable: "YES" },
      { name: "failures", type: "integer", nullable: "NO" },
      { name: "lockedAt", type: "timestamp with time zone", nullable: "YES" },
    ])
    const keys = await pool().query(`SELECT conname FROM pg_constraint WHERE conrelid = 'auth_factors'::regclass AND contype = 'f'`)
    expect(keys.rows).toEqual([])
    const indexes = await pool().query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'auth_factors'`)
    expect(indexes.rows.map((row) => row.indexdef)).toContainEqual(expect.stringContaining(`("userId", type)`))

    const adapter = PostgresAdapter(pool())
    const ada = await adapter.getUserByEmail("ada@example.com")
    expect(ada).toMatchObject({ name: "Ada" })
    expect(await adapter.getSessionRecord("r1")).toMatchObject({ userId: "1" })
    const factor = { id: "f1", userId: ada?.id ?? "", type: "totp" as const, secret: "sealed", createdAt: new Date(Math.floor(Date.now() / 1000) * 1000) }
    expect(await adapter.createAuthFactor(factor)).toEqual({ ...factor, confirmedAt: null, lastUsedStep: null, failures: 0, lockedAt: null })
    await migrate(pool())
    expect(await adapter.listAuthFactors(factor.userId)).toEqual([expect.objectContaining({ id: "f1" })])
    await adapter.deleteUser(factor.userId)
    expect(await adapter.listAuthFactors(factor.userId)).toEqual([])
  })
})

describe("migrate on a database whose rows repeat an email", () => {
  const pool = useDatabase("schema_duplicates", async (created) => {
    await created.query(authJsSchema("serial"))
    await created.query(`INSERT INTO users (email) VALUES ('twin@example.com'), ('twin@example.com')`)
  })

  it("refuses, saying which rows to merge, and leaves the database as it was", async () => {
    const failed = migrate(pool())
    await expect(failed).rejects.toMatchObject({ reason: "DuplicateRows", message: /merge or delete the duplicate users/ })
    const { rows } = await pool().query(`SELECT to_regclass('authenticators') AS table`)
    expect(rows[0]).toEqual({ table: null })
  })
})

describe("migrate on a database of the previous release's schema (session records without the assurance)", () => {
  const pool = useDatabase("schema_previous", async (created) => {
    await migrate(created)
    // The previous release's schema: this one without the columns the assurance added.
    await created.query(`ALTER TABLE session_records DROP COLUMN "signedInAt", DROP COLUMN "authTime", DROP COLUMN "authMethods"`)
    await created.query(
      `INSERT INTO session_records (id, "userId", "createdAt", "lastSeenAt", expires, "sessionToken") VALUES ('old-record', 'user-ada', now(), now(), now() + interval '1 day', 'old-session')`,
    )
  })

  it("adds signedInAt, authTime and authMethods, keeping the records, which read with them null until core fills them", async () => {
    await migrate(pool())
    const { rows } = await pool().query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'session_records'::regclass AND attname IN ('signedInAt', 'authTime', 'authMethods') ORDER BY attname`,
    )
    expect(rows).toEqual([
      { name: "authMethods", type: "text[]" },
      { name: "authTime", type: "timestamp with time zone" },
      { name: "signedInAt", type: "timestamp with time zone" },
    ])
    const adapter = PostgresAdapter(pool())
    expect(await adapter.getSessionRecord("old-record")).toMatchObject({ sessionToken: "old-session", signedInAt: null, authTime: null, authMethods: null })
    const signedInAt = new Date()
    expect(await adapter.updateSessionRecord({ id: "old-record", signedInAt, authMethods: [] })).toMatchObject({ signedInAt, authTime: null, authMethods: [] })
  })
})

describe("a database without the adapter's tables", () => {
  const pool = useDatabase("schema_missing")

  it("makes every method fail with MissingSchema, telling to run migrate(pool)", async () => {
    const adapter = PostgresAdapter(pool())
    await expect(adapter.getUserByEmail("ada@example.com")).rejects.toMatchObject({
      reason: "MissingSchema",
      message: /getUserByEmail\(\): relation "users" does not exist: .*run migrate\(pool\)/,
    })
  })

  it("names the missing column of a database that was never migrated", async () => {
    await pool().query(authJsSchema("serial"))
    const adapter = PostgresAdapter(pool())
    const user = await adapter.createUser({ email: "old@example.com", emailVerified: null })
    const link = adapter.linkAccount({ userId: user.id, type: "oauth", provider: "twitter", providerAccountId: "1", oauth_token: "t" })
    await expect(link).rejects.toMatchObject({ reason: "MissingSchema", message: /"oauth_token".*run migrate\(pool\)/ })
  })
})

describe("sweepExpired", () => {
  const pool = useDatabase("schema_sweep", migrate)

  it("deletes expired sessions, verification tokens, session records, single-use keys and ended rate-limit windows, and nothing else", async () => {
    const adapter = PostgresAdapter(pool())
    const user = await adapter.createUser({ email: "sweep@example.com", emailVerified: null })
    const past = new Date(Date.now() - HOUR)
    const future = new Date(Date.now() + HOUR)
    await adapter.createSession({ sessionToken: "expired", userId: user.id, expires: past })
    await adapter.createSession({ sessionToken: "live", userId: user.id, expires: future })
    await adapter.createVerificationToken({ identifier: "sweep@example.com", token: "expired", expires: past })
    await adapter.createVerificationToken({ identifier: "sweep@example.com", token: "live", expires: future })

    const record = { userId: user.id, createdAt: past, lastSeenAt: past }
    await adapter.createSessionRecord({ ...record, id: "expired", expires: past })
    await adapter.createSessionRecord({ ...record, id: "live", expires: future, revokedAt: past })
    // The first useOnce of an adapter sweeps expired keys itself; the second keeps an expired one.
    await adapter.useOnce("live", future)
    await adapter.useOnce("expired", past)
    await pool().query(`INSERT INTO rate_limits (key, count, reset_at) VALUES ('live', 1, $1), ('expired', 3, $2)`, [future, past])

    expect(await sweepExpired(pool())).toEqual({ sessions: 1, verificationTokens: 1, sessionRecords: 1, usedKeys: 1, rateLimits: 1 })
    const { rows } = await pool().query(
      `SELECT "sessionToken" AS token FROM sessions UNION ALL SELECT token FROM verification_token
       UNION ALL SELECT id FROM session_records UNION ALL SELECT key FROM used_keys UNION ALL SELECT key FROM rate_limits ORDER BY 1`,
    )
    expect(rows).toEqual([{ token: "live" }, { token: "live" }, { token: "live" }, { token: "live" }, { token: "live" }])
    expect(await sweepExpired(pool())).toEqual({ sessions: 0, verificationTokens: 0, sessionRecords: 0, usedKeys: 0, rateLimits: 0 })
  })
})

describe("useOnce", () => {
  const pool = useDatabase("schema_used_keys", migrate)

  it("deletes expired keys as it goes, and keeps the others", async () => {
    await pool().query(`INSERT INTO used_keys (key, expires) VALUES ('old-1', now() - interval '1 hour'), ('old-2', now() - interval '1 minute'), ('kept', now() + interval '1 hour')`)
    expect(await PostgresAdapter(pool()).useOnce("new", new Date(Date.now() + HOUR))).toBe(true)
    const { rows } = await pool().query(`SELECT key FROM used_keys ORDER BY key`)
    expect(rows).toEqual([{ key: "kept" }, { key: "new" }])
  })
})

describe("keys no row can hold", () => {
  const pool = useDatabase("schema_ids", migrate)

  it("are not found, and never reach the database as SQL", async () => {
    const adapter = PostgresAdapter(pool())
    for (const id of ["abc", "1; DROP TABLE users", "99999999999999999999", "-0x1"]) {
      expect(await adapter.getUser(id)).toBeNull()
      expect(await adapter.deleteUser(id)).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId(id)).toEqual([])
      expect(await adapter.listSessionRecords({ userId: id })).toEqual([])
      const now = new Date()
      // A session record is kept for any user id (a credentials user the store does not keep), as text.
      expect(await adapter.createSessionRecord({ id: `r ${id}`, userId: id, createdAt: now, lastSeenAt: now, expires: now })).toMatchObject({ userId: id })
      await expect(adapter.updateUser({ id, name: "x" })).rejects.toMatchObject({ reason: "NotFound" })
    }
    expect(await pool().query(`SELECT to_regclass('users') AS table`)).toMatchObject({ rows: [{ table: "users" }] })
  })

  it("a session token or email with a NUL byte (a hostile cookie) is not found, instead of failing", async () => {
    const adapter = PostgresAdapter(pool())
    const hostile = "token\u0000' OR 1=1 --"
    expect(await adapter.getSessionAndUser(hostile)).toBeNull()
    expect(await adapter.updateSession({ sessionToken: hostile, expires: new Date(Date.now() + HOUR) })).toBeNull()
    expect(await adapter.deleteSession(hostile)).toBeNull()
    expect(await adapter.getUserByEmail(hostile)).toBeNull()
    expect(await adapter.useVerificationToken({ identifier: hostile, token: hostile })).toBeNull()
    expect(await adapter.getAuthenticator(hostile)).toBeNull()
    expect(await adapter.getSessionRecord(hostile)).toBeNull()
    expect(await adapter.useOnce(hostile, new Date(Date.now() + HOUR))).toBe(false)
    expect(await adapter.updateSessionRecord({ id: hostile, revokedAt: new Date() })).toBeNull()
    expect(await adapter.listSessionRecords({ provider: "idp", providerSid: hostile })).toEqual([])
    expect(await adapter.listAuthFactors(hostile)).toEqual([])
    expect(await adapter.deleteAuthFactor(hostile)).toBe(false)
    expect(await adapter.useAuthFactorStep(hostile, 1)).toBe(false)
    expect(await adapter.countAuthFactorFailure(hostile)).toBe(0)
    expect(await adapter.updateAuthFactor({ id: hostile, lockedAt: new Date() })).toBeNull()
    expect(await adapter.getUserByAccount({ provider: "idp", providerAccountId: hostile })).toBeNull()
  })

  it("updateAuthenticatorCounter refuses a counter that is not a non-negative integer, before the database sees it", async () => {
    const adapter = PostgresAdapter(pool())
    await expect(adapter.updateAuthenticatorCounter("c1", 1.5)).rejects.toThrow(/newCounter must be a non-negative integer/)
    await expect(adapter.updateAuthenticatorCounter("c1", -1)).rejects.toThrow(TypeError)
  })
})

it("the test server listens on 127.0.0.1 only", async () => {
  const url = await createDatabase(inject("postgresUrl"), "schema_listen")
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const { rows } = await client.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'listen_addresses'`)
  await client.end()
  expect(rows[0]?.setting).toBe("127.0.0.1")
})
