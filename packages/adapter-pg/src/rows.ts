/**
 * Rows as node-postgres returns them, turned into the Adapter's records: ids become strings
 * (SERIAL, BIGINT or UUID columns alike), BIGINT columns numbers, and NULL columns of an account
 * are left out, as the optional fields they are.
 *
 * @module rows
 */
import type { AdapterAccount, AdapterAuthFactor, AdapterAuthenticator, AdapterSession, AdapterSessionRecord, AdapterUser, VerificationToken } from "@portcullis/core/adapters"

type Row = Record<string, unknown>

/** The account columns besides the keys: what `linkAccount` stores and the lookups return. */
export const ACCOUNT_FIELDS = [
  "type",
  "refresh_token",
  "access_token",
  "expires_at",
  "id_token",
  "scope",
  "session_state",
  "token_type",
  "oauth_token",
  "oauth_token_secret",
  "refresh_token_expires_at",
] as const

/** The user columns besides `id`. */
export const USER_FIELDS = ["name", "email", "emailVerified", "image"] as const

export const USER_COLUMNS = userColumns()
export const ACCOUNT_COLUMNS = `"userId", provider, "providerAccountId", ${ACCOUNT_FIELDS.join(", ")}`
export const SESSION_COLUMNS = `"sessionToken", "userId", expires`
export const SESSION_RECORD_COLUMNS = `id, "userId", "createdAt", "lastSeenAt", expires, "sessionToken", provider, "providerSid", "userAgent", "revokedAt", "clientAddress"`
export const AUTHENTICATOR_COLUMNS = `"credentialID", "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports, name, aaguid, "createdAt", "lastUsedAt"`

export const AUTH_FACTOR_COLUMNS = `id, "userId", type, secret, "createdAt", "confirmedAt", "lastUsedStep", failures, "lockedAt"`

/** The user columns, each prefixed with a table alias for joins (`userColumns("u.")`). */
export function userColumns(alias = ""): string {
  return ["id", "name", "email", `"emailVerified"`, "image"].map((column) => `${alias}${column}`).join(", ")
}

/** An id column's value as the string the Adapter contract wants. */
function id(value: unknown): string {
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "bigint") return value.toString()
  throw new TypeError(`PostgresAdapter: an id column holds ${typeof value}, not a number or string`)
}

/** BIGINT columns come back as strings (they may exceed 2^53); the counters and times here do not. */
function integer(value: unknown): number {
  return typeof value === "number" ? value : Number(value)
}

export function toUser(row: Row): AdapterUser {
  return {
    id: id(row.id),
    name: row.name as string | null,
    email: row.email as string | null,
    emailVerified: row.emailVerified as Date | null,
    image: row.image as string | null,
  }
}

export function toAccount(row: Row): AdapterAccount {
  const account: AdapterAccount = {
    userId: id(row.userId),
    type: row.type as AdapterAccount["type"],
    provider: row.provider as string,
    providerAccountId: row.providerAccountId as string,
  }
  const optional: Row = account
  for (const field of ACCOUNT_FIELDS) {
    const value = row[field]
    if (field === "type" || value === null || value === undefined) continue
    optional[field] = field === "expires_at" || field === "refresh_token_expires_at" ? integer(value) : value
  }
  return account
}

export function toSession(row: Row): AdapterSession {
  return { sessionToken: row.sessionToken as string, userId: id(row.userId), expires: row.expires as Date }
}

export function toVerificationToken(row: Row): VerificationToken {
  return { identifier: row.identifier as string, token: row.token as string, expires: row.expires as Date }
}

export function toAuthenticator(row: Row): AdapterAuthenticator {
  return {
    credentialID: row.credentialID as string,
    userId: id(row.userId),
    providerAccountId: row.providerAccountId as string,
    credentialPublicKey: row.credentialPublicKey as string,
    counter: integer(row.counter),
    credentialDeviceType: row.credentialDeviceType as string,
    credentialBackedUp: row.credentialBackedUp as boolean,
    transports: (row.transports as string | null) ?? null,
    name: (row.name as string | null) ?? null,
    aaguid: (row.aaguid as string | null) ?? null,
    createdAt: (row.createdAt as Date | null) ?? null,
    lastUsedAt: (row.lastUsedAt as Date | null) ?? null,
  }
}

export function toSessionRecord(row: Row): AdapterSessionRecord {
  return {
    id: row.id as string,
    userId: id(row.userId),
    createdAt: row.createdAt as Date,
    lastSeenAt: row.lastSeenAt as Date,
    expires: row.expires as Date,
    sessionToken: (row.sessionToken as string | null) ?? null,
    provider: (row.provider as string | null) ?? null,
    providerSid: (row.providerSid as string | null) ?? null,
    userAgent: (row.userAgent as string | null) ?? null,
    clientAddress: (row.clientAddress as string | null) ?? null,
    revokedAt: (row.revokedAt as Date | null) ?? null,
  }
}

export function toAuthFactor(row: Row): AdapterAuthFactor {
  return {
    id: row.id as string,
    userId: row.userId as string,
    type: row.type as AdapterAuthFactor["type"],
    secret: row.secret as string,
    createdAt: row.createdAt as Date,
    confirmedAt: (row.confirmedAt as Date | null) ?? null,
    lastUsedStep: row.lastUsedStep === null || row.lastUsedStep === undefined ? null : integer(row.lastUsedStep),
    failures: integer(row.failures),
    lockedAt: (row.lockedAt as Date | null) ?? null,
  }
}
