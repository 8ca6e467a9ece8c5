/**
 * The logger `Auth()` writes to, and what keeps secrets out of it: every error handed to a
 * logger, the app's or the console, is a copy whose causes are reduced to their names and
 * messages (a library's error may carry a whole token response as its `cause`), with every known
 * secret value and anything shaped like a JWT replaced.
 */
import { AuthError } from "./errors.js"
import type { LoggerInstance } from "../model.js"

const REDACTED = "[redacted]"
/** Compact JWS / JWE: ID tokens, many access tokens, our own sealed values. */
const JWT_LIKE = /\beyJ[\w-]{4,}(?:\.[\w-]*){2,4}/g
/** Shorter values would blank out ordinary words of messages. */
const MIN_SECRET_LENGTH = 3
const MAX_CAUSE_DEPTH = 4

/** Replaces every occurrence of the given values, and every JWT-shaped string, in `text`. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text.replace(JWT_LIKE, REDACTED)
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED)
  return out
}

function describeValue(value: unknown): string {
  if (typeof value !== "object" || value === null) return `a ${typeof value} value`
  return Array.isArray(value) ? "an array" : `an object with keys ${Object.keys(value).slice(0, 12).join(", ")}`
}

/** An error's cause as a plain `Error` with only its name, message, string `code` and stack, all redacted. */
function safeCause(cause: unknown, secrets: Iterable<string>, depth: number): Error {
  if (!(cause instanceof Error)) return new Error(`(${describeValue(cause)}, not shown)`)
  const copy = new Error(redact(cause.message, secrets), depth < MAX_CAUSE_DEPTH && cause.cause !== undefined ? { cause: safeCause(cause.cause, secrets, depth + 1) } : undefined)
  copy.name = cause.name
  copy.stack = cause.stack === undefined ? undefined : redact(cause.stack, secrets)
  const code = (cause as { code?: unknown }).code
  if (typeof code === "string") Object.defineProperty(copy, "code", { value: code, enumerable: true })
  return copy
}

/**
 * A copy of `error` that is safe to log: same class, code and page; message, stack and causes
 * redacted; causes reduced to `Error`s with a name and a message.
 */
export function sanitizeError(error: AuthError, secrets: Iterable<string>): AuthError {
  const values = [...secrets]
  const copy = Object.create(Object.getPrototypeOf(error) as object) as AuthError
  Object.defineProperties(copy, {
    ...Object.getOwnPropertyDescriptors(error),
    message: { value: redact(error.message, values), writable: true, configurable: true },
    stack: { value: error.stack === undefined ? undefined : redact(error.stack, values), writable: true, configurable: true },
    cause: { value: error.cause === undefined ? undefined : safeCause(error.cause, values, 1), writable: true, configurable: true },
  })
  return copy
}

function describe(error: AuthError): string {
  let text = `[auth][error] ${error.name}: ${error.message}`
  let cause: unknown = error.cause
  for (let depth = 0; cause instanceof Error && depth < MAX_CAUSE_DEPTH; depth++) {
    text += `\n[auth][cause] ${cause.name}: ${cause.message}`
    cause = cause.cause
  }
  return text
}

/**
 * The logger `Auth()` uses: the user's methods where given, the console otherwise; `debug` only
 * when enabled. Whatever reaches either has `secrets` (the configuration's own: client secrets,
 * `secret`) redacted.
 */
export function createLogger(user: Partial<LoggerInstance> | undefined, debug: boolean, secrets: readonly string[] = []): LoggerInstance {
  const logger: LoggerInstance = {
    error: (error) => {
      console.error(describe(error))
    },
    warn: (code, message) => {
      console.warn(`[auth][warn][${code}]${message === undefined ? "" : ` ${message}`}`)
    },
    debug: (message, metadata) => {
      console.debug(`[auth][debug] ${message}`, metadata ?? "")
    },
  }
  if (typeof user?.error === "function") logger.error = user.error.bind(user)
  if (typeof user?.warn === "function") logger.warn = user.warn.bind(user)
  if (typeof user?.debug === "function") logger.debug = user.debug.bind(user)
  const guarded = guard(logger, secrets)
  if (!debug) guarded.debug = () => undefined
  return guarded
}

/** Metadata as text, redacted: an object could hold anything. */
function safeMetadata(metadata: unknown, secrets: readonly string[]): unknown {
  if (metadata === undefined) return undefined
  let text: string
  try {
    text = typeof metadata === "string" ? metadata : JSON.stringify(metadata)
  } catch {
    return `(${describeValue(metadata)}, not shown)`
  }
  return redact(text, secrets)
}

/** Sanitizes what is logged, and keeps a logger that throws from turning a handled failure into an unhandled one. */
function guard(logger: LoggerInstance, secrets: readonly string[]): LoggerInstance {
  return {
    error: (error) => {
      try {
        logger.error(error instanceof AuthError ? sanitizeError(error, secrets) : error)
      } catch {
        // The app's logger failed; there is nowhere left to report to.
      }
    },
    warn: (code, message) => {
      try {
        logger.warn(code, message === undefined ? undefined : redact(message, secrets))
      } catch {
        // As above.
      }
    },
    debug: (message, metadata) => {
      try {
        logger.debug(redact(message, secrets), safeMetadata(metadata, secrets))
      } catch {
        // As above.
      }
    },
  }
}
