import type { InternalConfig } from "../internal.js"
import { EventError } from "../errors/errors.js"
import { sanitizeError } from "../errors/logger.js"
import type { EventCallbacks } from "../types.js"

/**
 * Runs the app's handler for an event. Events cannot change the outcome: a throw is logged
 * as an `EventError` and the request goes on.
 */
export async function emit<E extends keyof EventCallbacks>(
  config: InternalConfig,
  event: E,
  message: Parameters<NonNullable<EventCallbacks[E]>>[0],
): Promise<void> {
  const handler = config.events[event] as ((message: unknown) => unknown) | undefined
  if (handler === undefined) return
  try {
    await handler(message)
  } catch (cause) {
    // The message carries the account's tokens, which the handler may have put in its error.
    config.logger.error(sanitizeError(new EventError(`The \`events.${event}\` handler threw.`, { cause }), tokensOf(message)))
  }
}

function tokensOf(message: unknown): string[] {
  const account = (message as { account?: unknown }).account
  if (typeof account !== "object" || account === null) return []
  return Object.values(account).filter((value): value is string => typeof value === "string" && value.length >= 8)
}
