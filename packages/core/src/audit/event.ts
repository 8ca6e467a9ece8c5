/**
 * One audit event built and handed to the app's `events.audit`. Fetched only when the app has
 * that handler, with the first event: an app without it loads none of this.
 */
import { EventError } from "../errors/errors.js"
import { sanitizeError } from "../errors/logger.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import { clientAddressOf, userAgentOf } from "../limits/client-address-of.js"
import type { AuditEvent, AuditOutcome, AuditReason, AuditType } from "../types.js"

/** What the operation knows of itself; the request adds where from and when. */
export interface AuditFacts {
  type: AuditType
  outcome: AuditOutcome
  reason?: AuditReason | undefined
  provider?: string | undefined
  userId?: string | undefined
  methods?: readonly string[] | undefined
}

/** The client address as the per-client limits key it, when the app or its integration names one. */
async function addressOf(context: RequestContext): Promise<string | undefined> {
  try {
    return await clientAddressOf(context)
  } catch {
    // A `clientAddress` hook that throws is reported where the limits ask it; the event goes without.
    return undefined
  }
}

/**
 * Builds the event, with only the fields that are known (so a handler that stores it whole stores
 * no `undefined`), and hands it to `events.audit`. A handler that throws is logged as an
 * `EventError`, the request's secrets redacted, and changes nothing.
 */
export async function sendAuditEvent(config: InternalConfig, context: RequestContext | undefined, facts: AuditFacts): Promise<void> {
  const handler = config.events.audit
  if (handler === undefined) return
  const event: AuditEvent = { type: facts.type, outcome: facts.outcome, at: Date.now() }
  if (facts.reason !== undefined) event.reason = facts.reason
  if (facts.userId !== undefined) event.userId = facts.userId
  if (facts.provider !== undefined) event.provider = facts.provider
  if (facts.methods !== undefined) event.methods = [...facts.methods]
  if (context !== undefined) {
    const address = await addressOf(context)
    if (address !== undefined) event.clientAddress = address
    const agent = userAgentOf(context.request)
    if (agent !== undefined) event.userAgent = agent
  }
  try {
    await handler(event)
  } catch (cause) {
    config.logger.error(sanitizeError(new EventError("The `events.audit` handler threw.", { cause }), context?.sensitive ?? []))
  }
}
