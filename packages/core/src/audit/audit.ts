/**
 * The `audit/` room: the app's audit trail, `events.audit`, one event per authentication
 * operation. An operation names itself as it starts (`auditAs`) and ends with one event: its
 * success where it succeeds, a refusal where it answers one itself, or the failure that
 * `http/failures.ts` answers, with the reason that module maps the error's code to. This door
 * is all that loads with `Auth()`: without `events.audit` nothing is marked, so nothing more is
 * fetched and no event is built. What notes, refuses and ends an operation otherwise is
 * `trail.ts`, loaded with the flows and routes that use it, and the event is built in
 * `event.ts`, fetched only when the app listens. The room sits above `limits/` (an event carries
 * the client address) and below the sign-in ending, the flows and the routes;
 * `http/failures.ts` reaches it by an exception `.dependency-cruiser.mjs` declares.
 */
import type { RequestContext } from "../internal.js"
import type { AuditReason, AuditType } from "../types.js"

const trail = () => import("./trail.js")

/**
 * Names the operation the request performs from here on: its event, or the failure answered
 * later, is sent as this one. Does nothing when the app has no `events.audit`.
 */
export function auditAs(context: RequestContext, type: AuditType, provider?: string): void {
  if (context.config.events.audit !== undefined) context.audit = { type, provider }
}

/**
 * Sends the success of the operation under way, which ends it; `reason` says how a
 * `sessionRevoke` ended sessions, `methods` how a `signIn`'s user proved who they are.
 */
export async function auditSuccess(context: RequestContext, userId?: string, reason?: AuditReason, methods?: readonly string[]): Promise<void> {
  if (context.audit !== undefined) await (await trail()).endOperation(context, "success", reason, userId, methods)
}
