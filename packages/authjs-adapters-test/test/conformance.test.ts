/**
 * The shared adapter suite against Auth.js's own published adapters, unchanged. A case is left
 * out only where the adapter (or the schema Auth.js documents) lacks what the case checks; each
 * says why, and, where core meets that behaviour, which test here shows core copes with it.
 * Left-out cases are not registered, so they count as not run, never as passed.
 */
import { runAdapterTests } from "@portcullis/adapter-test"
import { describe } from "vitest"
import { lazyDb, useAuthJsStore } from "./stores.js"

/** The cases that read an account back through getAccount(), which core never calls. */
const NO_GET_ACCOUNT = [
  "linkAccount stores the account and getAccount returns it",
  "getAccount takes the providerAccountId first, and returns null for an unknown account",
  "a user can link accounts at several providers",
  "an account is found by provider and providerAccountId together",
  "unlinkAccount removes the link and keeps the user",
  "deleteUser deletes the user's accounts",
  "changing an account passed in or returned does not change the store",
]

/** What `@auth/pg-adapter` lacks on either id type. */
const PG_LACKS = [
  // No deleteVerificationTokens (this project's addition): core then refuses email changes, and
  // account deletion leaves the address's sign-in links to expire (see the core README).
  "verification token deletion",
  // No authenticator methods: passkeys need another store (core checks this at config time).
  "authenticators",
  "passkey management",
  // No listAccountsByUserId (this project's optional addition): core then keeps a passkey unless
  // another passkey or a verified email remains (packages/core/test/webauthn/manage.test.ts).
  "accounts by user",
  // No updateAccount / withAccountLock (this project's additions): getAccessToken needs them to refresh.
  "account refresh",
  // No session records or useOnce (this project's additions): back-channel logout needs them, and
  // Auth() refuses backchannelLogout with such an adapter at start, naming what is missing.
  "session records",
  "single-use keys",
  // No second-factor methods (this project's addition): Auth() refuses `mfa` with such an adapter
  // at start, naming them; an app adds them from @portcullis/adapter-pg (test/composed-factors.test.ts).
  "auth factors",
  // No password hash methods (this project's addition): an app gives `Password({ store })` a get
  // and a set on a table of its own (the core README's "Password accounts").
  "password hashes",
  // No createUserWithAccount (this project's optional addition): core creates the user, then
  // links the account, and a later verified sign-in finishes a user left without it
  // (packages/adapter-pg/test/killed-sign-in.test.ts).
  "user with account",
  // No unique keys in the documented schema, and the adapter checks nothing before writing.
  // Core looks a user / account up before it creates or links one (sign-in.test.ts: "a second
  // sign-in reuses them"); two concurrent first sign-ins can still make two users there.
  "uniqueness",
  ...NO_GET_ACCOUNT,
  // The documented table has no oauth_token / oauth_token_secret columns (OAuth 1.0a).
  "an OAuth 1.0a account keeps its oauth_token and oauth_token_secret",
  // Returns expired rows as they are. Core checks `expires` itself and deletes the session
  // (sign-in.test.ts: "an expired session reads as none, and is deleted").
  "getSessionAndUser returns null for an expired session, and deletes it",
  // Returns an expired token as it is; core checks `expires` itself (email/token.ts, and
  // sign-in.test.ts: "an expired email link signs nobody in").
  "useVerificationToken returns null for an expired token, and deletes it",
]

describe("@auth/pg-adapter on Auth.js's documented schema (SERIAL ids)", () => {
  const store = useAuthJsStore("pg-serial", "conformance")
  runAdapterTests({
    adapter: () => store().adapter,
    db: lazyDb(store),
    skip: [
      ...PG_LACKS,
      // The new user's id comes back as a number (SERIAL). Core turns ids into strings
      // (sign-in.test.ts signs in on this schema and reads the id back as a string).
      "createUser returns the user with a new id and the given fields",
      // A non-integer id makes the DELETE throw (invalid input syntax for type integer). Core
      // only deletes a user whose id the store just gave it.
      "deleteUser of an unknown id returns nothing",
    ],
  })
})

describe("@auth/pg-adapter on Auth.js's schema with UUID ids", () => {
  const store = useAuthJsStore("pg-uuid", "conformance")
  runAdapterTests({ adapter: () => store().adapter, db: lazyDb(store), skip: PG_LACKS })
})

describe("@auth/unstorage-adapter on Redis", () => {
  const store = useAuthJsStore("unstorage-redis", "conformance")
  runAdapterTests({
    adapter: () => store().adapter,
    db: lazyDb(store),
    skip: [
      // A key-value store without uniqueness checks: every write overwrites. Core looks up
      // before it creates or links, as for PostgreSQL above.
      "uniqueness",
      // No deleteVerificationTokens (see PG_LACKS).
      "verification token deletion",
      "createAuthenticator throws for a credentialID that exists",
      // No updateAuthenticator / deleteAuthenticator: renaming and removing passkeys are this
      // project's additions to the contract, which Auth.js's adapters do not have.
      "updateAuthenticator changes the name and lastUsedAt, and nothing else",
      "updateAuthenticator returns null for an unknown credentialID",
      "deleteAuthenticator deletes that credential only",
      "deleteAuthenticator returns null for an unknown credentialID",
      // No listAccountsByUserId either (see PG_LACKS).
      "accounts by user",
      "account refresh",
      // No session records or useOnce (see PG_LACKS).
      "session records",
      "single-use keys",
      // No second-factor or password hash methods (see PG_LACKS).
      "auth factors",
      "password hashes",
      // No createUserWithAccount (see PG_LACKS).
      "user with account",
      // updateUser keeps the old email's index key: getUserByEmail(old) still finds the user.
      "updateUser moves the user to a new email",
      // deleteUser throws ("[unstorage] Invalid key: null") for a user without an account or a
      // session, and keeps all but the last account and the authenticators. Core calls it only
      // to undo a user whose account could not be linked, and logs when that fails.
      "deleteUser removes the user",
      "deleteUser deletes the user's accounts",
      "deleteUser deletes the user's sessions",
      "deleteUser deletes the user's authenticators",
      // Expired rows come back as they are; core checks `expires` itself (see above).
      "getSessionAndUser returns null for an expired session, and deletes it",
      "useVerificationToken returns null for an expired token, and deletes it",
    ],
  })
})

/**
 * What the ORM adapters lack alike: this project's additions to the contract (renaming and
 * removing passkeys with their name, AAGUID and dates; listing a user's accounts; session
 * records, single-use keys and second factors; a user and account written together), columns for
 * OAuth 1.0a tokens, which Auth.js never supported, and expiry checks, which core makes itself.
 */
const ORMS_LACK = [
  // No deleteVerificationTokens (see PG_LACKS).
  "verification token deletion",
  // No updateAuthenticator / deleteAuthenticator, and no columns for a passkey's name, AAGUID
  // and dates: core stores only Auth.js's authenticator fields in such an adapter.
  "passkey management",
  // No listAccountsByUserId (see PG_LACKS).
  "accounts by user",
  // No updateAccount / withAccountLock (see PG_LACKS).
  "account refresh",
  // No session records or useOnce (see PG_LACKS).
  "session records",
  "single-use keys",
  // No second-factor or password hash methods (see PG_LACKS).
  "auth factors",
  "password hashes",
  // No createUserWithAccount (see PG_LACKS).
  "user with account",
  // The guides' account tables have no oauth_token / oauth_token_secret columns.
  "an OAuth 1.0a account keeps its oauth_token and oauth_token_secret",
  // Expired rows come back as they are; core checks `expires` itself (see PG_LACKS).
  "getSessionAndUser returns null for an expired session, and deletes it",
  "useVerificationToken returns null for an expired token, and deletes it",
]

describe("@auth/prisma-adapter on Prisma 7 (pg driver adapter), Auth.js's Prisma schema", () => {
  const store = useAuthJsStore("prisma", "conformance")
  runAdapterTests({
    adapter: () => store().adapter,
    db: lazyDb(store),
    skip: [
      ...ORMS_LACK,
      // The schema's `updatedAt @updatedAt` column changes on every update, as it should.
      "updateUser returns the updated user, keeping the fields it is not given",
      // Prisma's delete and update throw (P2025) for a row that is not there. Core deletes and
      // updates only rows it has just read, and treats a failed sign-out delete as done.
      "deleteUser of an unknown id returns nothing",
      "unlinkAccount of an unknown account returns nothing",
      "updateSession and deleteSession of an unknown token return nothing and create nothing",
    ],
  })
})

describe("@auth/drizzle-adapter on node-postgres, Auth.js's Drizzle tables", () => {
  const store = useAuthJsStore("drizzle", "conformance")
  runAdapterTests({ adapter: () => store().adapter, db: lazyDb(store), skip: ORMS_LACK })
})

describe("@auth/kysely-adapter on node-postgres, Auth.js's Kysely tables", () => {
  const store = useAuthJsStore("kysely", "conformance")
  runAdapterTests({
    adapter: () => store().adapter,
    db: lazyDb(store),
    skip: [
      ...ORMS_LACK,
      // No authenticator methods (passkeys need another store; core checks this at config time).
      "authenticators",
      // No getAccount().
      ...NO_GET_ACCOUNT,
      // The guide's Account table has no unique key on (provider, providerAccountId). Core looks
      // an account up before it links one (sign-in.test.ts: "a second sign-in reuses them").
      "linkAccount throws for an account already linked to the same user",
      "linkAccount throws for an account already linked to another user",
      // updateSession of an unknown token throws ("no result"); core updates only a session it
      // has just read.
      "updateSession and deleteSession of an unknown token return nothing and create nothing",
    ],
  })
})
