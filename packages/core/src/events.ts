import type { InternalConfig } from "./config.js"
import { EventError } from "./errors.js"
import type { EventCallbacks } from "./types.js"

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
    config.logger.error(new EventError(`The \`events.${event}\` handler threw.`, { cause }))
  }
}
