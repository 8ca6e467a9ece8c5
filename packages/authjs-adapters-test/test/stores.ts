/**
 * The stores Auth.js's adapters run on in these tests, each as a migrating app would set it up:
 * `@auth/pg-adapter` on the schema Auth.js documents (SERIAL ids, or the common UUID variant),
 * `@auth/unstorage-adapter` on unstorage's Redis driver, and the ORM adapters most Auth.js apps
 * use on the tables their guides declare: `@auth/prisma-adapter` (Prisma 7 with its pg driver
 * adapter), `@auth/drizzle-adapter` and `@auth/kysely-adapter` (both on node-postgres).
 */
import PostgresAdapter from "@auth/pg-adapter"
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import pg from "pg"
import { createStorage, type Driver, type Storage } from "unstorage"
import redisDriver from "unstorage/drivers/redis"
import { afterAll, beforeAll, inject } from "vitest"
import type { Adapter } from "@portcullis/core/adapters"
import { sqlStoreAccess, type AdapterTestDb, type SqlTables } from "@portcullis/adapter-test"
import { authJsSchema } from "../../adapter-pg/test/databases.js"
import { createDatabase } from "../../adapter-pg/test/postgres.js"
import { DRIZZLE_SQL, drizzleAdapter } from "./orm/drizzle.js"
import { KYSELY_SQL, kyselyAdapter } from "./orm/kysely.js"
import { PRISMA_SQL, prismaAdapter } from "./orm/prisma.js"

/** Which Auth.js store: the PostgreSQL schema's id type, Redis, or an ORM's schema on PostgreSQL. */
export type StoreKind = "pg-serial" | "pg-uuid" | "unstorage-redis" | OrmKind

/** The ORM adapters, each on the PostgreSQL tables its Auth.js guide declares. */
export type OrmKind = "prisma" | "drizzle" | "kysely"

/** Every store kind, for tests that run once per store. */
export const STORE_KINDS: readonly StoreKind[] = ["pg-serial", "pg-uuid", "unstorage-redis", "prisma", "drizzle", "kysely"]

/** Each ORM's schema: its tables' SQL, and their names. */
const ORM_SCHEMAS: Record<OrmKind, { sql: string; tables: SqlTables; authenticators: boolean }> = {
  prisma: {
    sql: PRISMA_SQL,
    tables: { users: `"User"`, accounts: `"Account"`, sessions: `"Session"`, verificationTokens: `"VerificationToken"`, authenticators: `"Authenticator"` },
    authenticators: true,
  },
  drizzle: {
    sql: DRIZZLE_SQL,
    tables: { users: `"user"`, accounts: `"account"`, sessions: `"session"`, verificationTokens: `"verificationToken"`, authenticators: `"authenticator"` },
    authenticators: true,
  },
  kysely: {
    sql: KYSELY_SQL,
    tables: { users: `"User"`, accounts: `"Account"`, sessions: `"Session"`, verificationTokens: `"VerificationToken"`, authenticators: `"Authenticator"` },
    authenticators: false,
  },
}

const isOrm = (kind: StoreKind): kind is OrmKind => kind in ORM_SCHEMAS

/** An Auth.js adapter on its store, and raw access to the store for the suite. */
export interface AuthJsStore {
  /**
   * Auth.js's adapter as its package exports it, typed as ours: this is the assignment a
   * migrating app makes, so a contract mismatch would fail type-checking here.
   */
  adapter: Adapter
  db: AdapterTestDb
  /** The database's URL, for a store on PostgreSQL (other processes may open it). */
  databaseUrl?: string
  /** Empties the store, so a test starts from no users. */
  reset(): Promise<void>
  /** How many users and accounts the store holds. */
  count(): Promise<{ users: number; accounts: number }>
}

/** Reads the keys `@auth/unstorage-adapter` writes (its default key prefixes). */
function keys(storage: Storage): AdapterTestDb {
  return {
    user: (id) => storage.getItem(`user:${id}`),
    account: ({ provider, providerAccountId }) => storage.getItem(`user:account:${provider}:${providerAccountId}`),
    session: (token) => storage.getItem(`user:session:${token}`),
    verificationToken: ({ identifier, token }) => storage.getItem(`user:token:${identifier}:${token}`),
  }
}

/**
 * A fresh store of `kind` for the calling test file (a new database, or a Redis key prefix no
 * other file uses), made before its tests and closed after. Returns an accessor, valid inside
 * tests and hooks.
 */
export function useAuthJsStore(kind: StoreKind, name: string): () => AuthJsStore {
  let store: AuthJsStore | undefined
  let close: (() => Promise<void>) | undefined
  beforeAll(async () => {
    if (kind === "unstorage-redis") {
      // unstorage 1.17's types name ioredis 6's generic client, while its peer range (and this
      // package) is ioredis 5: the driver's declared type does not resolve, its value is fine.
      const driver = redisDriver({ url: inject("redisUrl"), base: `${name}:${crypto.randomUUID()}` }) as Driver
      const storage = createStorage({ driver })
      const counted = async (prefix: string, not: string[]): Promise<number> =>
        (await storage.getKeys(prefix)).filter((key) => !not.some((other) => key.startsWith(other))).length
      store = {
        adapter: UnstorageAdapter(storage),
        db: keys(storage),
        reset: () => storage.clear(),
        // unstorage hands keys back with ":" for separators, as the adapter wrote them.
        count: async () => ({
          users: await counted("user:", ["user:account:", "user:email:", "user:session:", "user:token:"]),
          accounts: await counted("user:account:", ["user:account:by-user-id:"]),
        }),
      }
      close = () => storage.dispose()
      return
    }
    const url = await createDatabase(inject("postgresUrl"), `${name}_${kind.replace("-", "_")}`)
    const pool = new pg.Pool({ connectionString: url, max: 5 })
    if (isOrm(kind)) {
      const schema = ORM_SCHEMAS[kind]
      await pool.query(schema.sql)
      const orm = kind === "prisma" ? prismaAdapter(url) : kind === "kysely" ? kyselyAdapter(pool) : drizzleAdapter(pool)
      const { tables } = schema
      const rows = async (table: string): Promise<number> => Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n)
      store = {
        adapter: orm.adapter,
        databaseUrl: url,
        db: sqlStoreAccess((sql, values) => pool.query(sql, values), { tables, authenticators: schema.authenticators }),
        reset: async () => {
          const all = [tables.users, tables.accounts, tables.sessions, tables.verificationTokens, ...(schema.authenticators ? [tables.authenticators] : [])]
          await pool.query(`TRUNCATE ${all.join(", ")} CASCADE`)
        },
        count: async () => ({ users: await rows(tables.users), accounts: await rows(tables.accounts) }),
      }
      close = async () => {
        await orm.close()
        // Kysely's destroy() ends the pool it was given.
        if (kind !== "kysely") await pool.end()
      }
      return
    }
    await pool.query(authJsSchema(kind === "pg-serial" ? "serial" : "uuid"))
    const rows = async (table: string): Promise<number> => Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n)
    store = {
      adapter: PostgresAdapter(pool),
      // Straight from Auth.js's tables.
      db: sqlStoreAccess((sql, values) => pool.query(sql, values)),
      reset: async () => {
        await pool.query("TRUNCATE users, accounts, sessions, verification_token")
      },
      count: async () => ({ users: await rows("users"), accounts: await rows("accounts") }),
    }
    close = () => pool.end()
  })
  afterAll(async () => {
    await close?.()
  })
  return () => {
    if (store === undefined) throw new Error("useAuthJsStore(): the store is only there inside tests and hooks")
    return store
  }
}

/** Store access for `runAdapterTests`, registered before the store exists and read in each case. */
export function lazyDb(store: () => AuthJsStore): AdapterTestDb {
  return {
    user: (id) => store().db.user(id),
    account: (key) => store().db.account(key),
    session: (token) => store().db.session(token),
    verificationToken: (key) => store().db.verificationToken(key),
  }
}
