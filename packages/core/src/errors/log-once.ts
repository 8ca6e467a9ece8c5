/**
 * Problems logged once per process: a provider left out for a missing value is found each time a
 * configuration is read. Loaded only when there is such a problem (or a failed request to
 * answer), apart from the logger every request loads.
 */
import type { AuthError } from "./errors.js"
import type { LoggerInstance } from "../model.js"

/** The problems this process has logged through {@link logOnce}, and the errors that carried them. */
const loggedProblems = new Set<string>()
const loggedErrors = new WeakSet<AuthError>()

/**
 * Logs `error` once per process: a problem found each time a configuration is read (an app that
 * builds its configuration per request reads one on every request) is written on the first
 * reading only, so a flood of requests never floods the log with it.
 */
export function logOnce(logger: LoggerInstance, error: AuthError): void {
  loggedErrors.add(error)
  const problem = `${error.code}: ${error.message}`
  if (loggedProblems.has(problem)) return
  loggedProblems.add(problem)
  logger.error(error)
}

/** Whether `error` went through {@link logOnce}: a route answering with it logs it no more. */
export function loggedOnce(error: AuthError): boolean {
  return loggedErrors.has(error)
}
