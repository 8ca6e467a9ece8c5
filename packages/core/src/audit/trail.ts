/**
 * Noting and ending the operation under way (see `audit.ts`): the user it concerns once known,
 * a step inside it, a reason finer than an error's code, and its one event. Fetched by the code
 * that needs it (a flow's callback, a failure's answer), never with `Auth()`; the event itself
 * is built by `event.ts`, fetched only when the app has `events.audit`.
 */
import type { InternalConfig, RequestContext } from "../internal.js"
import type { AuditOutcome, AuditReason, AuditType } from "../types.js"

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

/** Notes the user the operation under way concerns (and the provider, when it is learnt late), once known, for its event. */
export function auditUser(context: RequestContext, userId: string | undefined, provider?: string): void {
  if (context.audit === undefined) return
  if (userId !== undefined) context.audit.userId = userId
  if (provider !== undefined) context.audit.provider = provider
}

/**
 * Sends the failure of the operation under way, which ends it: for a refusal answered without a
 * throw (a thrown error's is sent where it is answered, `http/failures.ts`).
 */
export async function auditFailure(context: RequestContext, reason: AuditReason, userId?: string): Promise<void> {
  await endOperation(context, "failure", reason, userId, undefined)
}

/** Sends the event that ends the operation under way, once: a failure met after it (or a second refusal) sends nothing more. */
export async function endOperation(
  context: RequestContext,
  outcome: AuditOutcome,
  reason: AuditReason | undefined,
  userId: string | undefined,
  methods: readonly string[] | undefined,
): Promise<void> {
  const operation = context.audit
  if (operation === undefined) return
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
