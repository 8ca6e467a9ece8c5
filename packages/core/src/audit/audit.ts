/**
 * The `audit/` room: the app's audit trail, `events.audit`, one event per authentication
 * operation. An operation names itself as it starts (`auditAs`) and ends with one event: its
 * success where it succeeds, a refusal where it answers one itself, or the failure that
 * `http/failures.ts` answers, with the reason that module maps the error's code to. This door
 * is all that loads with `Auth()`: without `events.audit` nothing is marked and no event is
 * built; the event itself is built in `event.ts`, fetched when the app listens. The room sits
 * above `limits/` (an event carries the client address) and below the sign-in ending, the
 * flows and the routes; `http/failures.ts` reaches it by an exception `.dependency-cruiser.mjs` declares.
 */
import type { InternalConfig, RequestContext } from "../internal.js"
import type { AuditReason, AuditType } from "../types.js"

/** Reasons more precise than an error's code tells, set where the error is thrown. */
const tagged = new WeakMap<object, AuditReason>()

/**
 * Tags `error` with the audit reason its code does not tell (a paused account is refused with a
 * `CredentialsSignin`, as a wrong password is) and answers it, for `throw`.
 */
export function withAuditReason<E extends Error>(error: E, reason: AuditReason): E {
  tagged.set(error, reason)
  return error
}

/** The reason {@link withAuditReason} tagged `error` with, if any. */
export function taggedAuditReason(error: unknown): AuditReason | undefined {
  return typeof error === "object" && error !== null ? tagged.get(error) : undefined
}

/**
 * Names the operation the request performs from here on: its event, or the failure answered
 * later, is sent as this one. Does nothing when the app has no `events.audit`.
 */
export function auditAs(context: RequestContext, type: AuditType, provider?: string): void {
  if (context.config.events.audit !== undefined) context.audit = { type, provider }
}

/** Notes the user the operation under way concerns (and the provider, when it is learnt late), once known, for its event. */
export function auditUser(context: RequestContext, userId: string | undefined, provider?: string): void {
  if (context.audit === undefined) return
  if (userId !== undefined) context.audit.userId = userId
  if (provider !== undefined) context.audit.provider = provider
}

/**
 * Sends the success of the operation under way, which ends it; `reason` says how a
 * `sessionRevoke` ended sessions, `methods` how a `signIn`'s user proved who they are.
 */
export function auditSuccess(context: RequestContext, userId?: string, reason?: AuditReason, methods?: readonly string[]): Promise<void> {
  return end(context, "success", reason, userId, methods)
}

/**
 * Sends the failure of the operation under way, which ends it: for a refusal answered without a
 * throw (a thrown error's is sent where it is answered, `http/failures.ts`).
 */
export function auditFailure(context: RequestContext, reason: AuditReason, userId?: string): Promise<void> {
  return end(context, "failure", reason, userId, undefined)
}

async function end(context: RequestContext, outcome: "success" | "failure", reason: AuditReason | undefined, userId: string | undefined, methods: readonly string[] | undefined): Promise<void> {
  const operation = context.audit
  if (operation === undefined) return
  // Once: a failure met after the success (or a second refusal) sends nothing more.
  context.audit = undefined
  const { sendAuditEvent } = await import("./event.js")
  await sendAuditEvent(context.config, context, { ...operation, outcome, reason, userId: userId ?? operation.userId, methods })
}

/**
 * Sends the success of a step inside the operation under way (an account linked during a
 * sign-in), which goes on: the step's event names the operation's provider.
 */
export async function auditStep(context: RequestContext, type: AuditType, userId: string): Promise<void> {
  const operation = context.audit
  if (operation === undefined) return
  const { sendAuditEvent } = await import("./event.js")
  await sendAuditEvent(context.config, context, { type, outcome: "success", provider: operation.provider, userId })
}

/** Sends the event of an operation that no request made (`revokeUserSessions`): no client address, no user agent. */
export async function auditWithoutRequest(config: InternalConfig, type: AuditType, outcome: "success" | "failure", reason: AuditReason, userId: string): Promise<void> {
  if (config.events.audit === undefined) return
  const { sendAuditEvent } = await import("./event.js")
  await sendAuditEvent(config, undefined, { type, outcome, reason, userId })
}
