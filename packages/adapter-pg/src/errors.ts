/**
 * What the PostgreSQL adapter throws, and how it reads the database's errors.
 *
 * @module errors
 */
import { AdapterError } from "@portcullis/core/errors"

/**
 * Why a {@link PostgresAdapterError} was thrown.
 *
 * - `Conflict`: a unique key is taken (an email another user has, an account already linked, a
 *   session token, verification token or credential id that exists). Two instances handling the
 *   same person's first sign-in at once end here on the losing side: the winner's user and
 *   account stay the only ones, and core signs the loser in as that user.
 * - `MissingSchema`: a table or column the adapter uses does not exist: run `migrate(pool)`.
 * - `NotFound`: `updateUser`, `updateAuthenticatorCounter` or `setPasswordHash` named a record that does not exist.
 * - `DuplicateRows`: `migrate` cannot add a unique key because rows already repeat it.
 */
export type PostgresAdapterErrorReason = "Conflict" | "MissingSchema" | "NotFound" | "DuplicateRows"

/**
 * An `AdapterError` from `@portcullis/adapter-pg`, with the `reason` to match on; the database's own
 * error, when there is one, is the `cause`.
 *
 * @example
 * ```ts
 * try { await adapter.createUser(user) } catch (error) {
 *   if (error instanceof PostgresAdapterError && error.reason === "Conflict") ...
 * }
 * ```
 */
export class PostgresAdapterError extends AdapterError {
  readonly reason: PostgresAdapterErrorReason

  constructor(reason: PostgresAdapterErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.reason = reason
  }
}

/** The fields of a node-postgres `DatabaseError` this package reads. */
interface DatabaseErrorFields {
  code?: unknown
  constraint?: unknown
  table?: unknown
  message?: unknown
}

function fieldsOf(error: unknown): DatabaseErrorFields {
  return typeof error === "object" && error !== null ? error : {}
}

/** The SQLSTATE of a database error, or `undefined` for anything else. */
export function sqlState(error: unknown): string | undefined {
  const { code } = fieldsOf(error)
  return typeof code === "string" ? code : undefined
}

// SQLSTATEs from https://www.postgresql.org/docs/current/errcodes-appendix.html
export const UNIQUE_VIOLATION = "23505"
const UNDEFINED_TABLE = "42P01"
const UNDEFINED_COLUMN = "42703"
/** An id the column's type cannot hold (`"abc"` for an integer or UUID id). */
const INVALID_TEXT_REPRESENTATION = "22P02"
/** An id too large for an integer column. */
const NUMERIC_VALUE_OUT_OF_RANGE = "22003"
/** A NUL character, which no PostgreSQL text value can hold. */
const CHARACTER_NOT_IN_REPERTOIRE = "22021"
const UNMATCHABLE = new Set([INVALID_TEXT_REPRESENTATION, NUMERIC_VALUE_OUT_OF_RANGE, CHARACTER_NOT_IN_REPERTOIRE])

/**
 * Whether the error means "no row can hold this key": an id not of the column's type, or text
 * with a NUL character (a hostile cookie). A lookup by such a key finds nothing.
 */
export function isUnmatchable(error: unknown): boolean {
  const state = sqlState(error)
  return state !== undefined && UNMATCHABLE.has(state)
}

/**
 * The error to throw for a failed query in `method`: a {@link PostgresAdapterError} when the
 * database says what to fix, the database's error itself otherwise.
 */
export function explain(error: unknown, method: string, taken: string): unknown {
  const { message } = fieldsOf(error)
  const detail = typeof message === "string" ? message : String(error)
  switch (sqlState(error)) {
    case UNIQUE_VIOLATION:
      return new PostgresAdapterError("Conflict", `PostgresAdapter: ${method}(): ${taken} (${detail}).`, { cause: error })
    case UNDEFINED_TABLE:
    case UNDEFINED_COLUMN:
      return new PostgresAdapterError(
        "MissingSchema",
        `PostgresAdapter: ${method}(): ${detail}: the database lacks the adapter's tables or columns; run migrate(pool) from @portcullis/adapter-pg (or apply its schema.sql).`,
        { cause: error },
      )
    default:
      return error
  }
}
