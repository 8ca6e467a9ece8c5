import type { AuthError } from "./errors.js"
import type { LoggerInstance } from "./types.js"

function describe(error: AuthError): string {
  let text = `[auth][error] ${error.name}: ${error.message}`
  let cause: unknown = error.cause
  for (let depth = 0; cause !== undefined && depth < 4; depth++) {
    text += `\n[auth][cause] ${cause instanceof Error ? `${cause.name}: ${cause.message}` : JSON.stringify(cause)}`
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return text
}

/** The logger `Auth()` uses: the user's methods where given, the console otherwise; `debug` only when enabled. */
export function createLogger(user: Partial<LoggerInstance> | undefined, debug: boolean): LoggerInstance {
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
  if (!debug) logger.debug = () => undefined
  return guard(logger)
}

/** A logger that throws must not turn a handled failure into an unhandled one. */
function guard(logger: LoggerInstance): LoggerInstance {
  return {
    error: (error) => {
      try {
        logger.error(error)
      } catch {
        // The app's logger failed; there is nowhere left to report to.
      }
    },
    warn: (code, message) => {
      try {
        logger.warn(code, message)
      } catch {
        // As above.
      }
    },
    debug: (message, metadata) => {
      try {
        logger.debug(message, metadata)
      } catch {
        // As above.
      }
    },
  }
}
