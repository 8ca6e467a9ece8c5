/**
 * Who may change the account: the request's user, only after a recent enough authentication
 * (`session.reauthAge`), at level 2 once they have a confirmed second factor, as second-factor
 * changes ask. And how the account routes answer: JSON for a script or server code, a page or a
 * redirect for a form.
 */
import type { Adapter, AdapterMethod } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"
import { callAdapter } from "../outbound/store.js"
import { requireRecentSession, type RecentSession } from "../session/recent.js"

/** Whether the answer is for a script (or server code), which wants JSON rather than a page. */
export function answersJson(context: RequestContext): boolean {
  const { request } = context
  const accept = request.headers.get("accept") ?? ""
  return context.serverCall === true || request.headers.get("x-auth-return-redirect") === "1" || (accept.includes("application/json") && !accept.includes("text/html"))
}

/**
 * The adapter, when it has every method of `methods`.
 *
 * @throws {Configuration} naming the missing ones (and what needs them) otherwise.
 */
export function adapterWith(context: RequestContext, methods: readonly AdapterMethod[], what: string): Adapter {
  const { adapter } = context.config
  const missing = methods.filter((method) => typeof adapter?.[method] !== "function")
  if (adapter !== undefined && missing.length === 0) return adapter
  const lacking = adapter === undefined ? "no `adapter` is configured" : `the adapter has no ${missing.map((method) => `\`${method}\``).join(", ")}`
  throw new Configuration(`${what} needs an adapter with ${methods.map((method) => `\`${method}\``).join(", ")}: ${lacking}.`)
}

/** Whether the user has a confirmed second factor (a locked one included: it is theirs until removed). */
async function hasConfirmedFactor(adapter: Adapter | undefined, userId: string): Promise<boolean> {
  if (typeof adapter?.listAuthFactors !== "function") return false
  const factors: unknown = await callAdapter(adapter, "listAuthFactors", userId)
  return Array.isArray(factors) && factors.some((factor: { type?: unknown; confirmedAt?: unknown }) => factor.type === "totp" && factor.confirmedAt != null)
}

/**
 * The request's session when its user authenticated recently enough for an account change: level
 * 2 when they have a confirmed second factor. Otherwise the refusal `requireRecentSession`
 * answers (`SessionRequired`, or `ReauthRequired` with the re-authentication page as `url`).
 *
 * @throws {AdapterError} when the store fails.
 * @throws {SessionTokenError} when a session callback throws.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1 (re-authentication before changing the account)
 */
export async function recentActor(context: RequestContext, callbackUrl: string | undefined): Promise<RecentSession> {
  const recent = await requireRecentSession(context, { callbackUrl })
  if (!recent.ok || recent.current.assurance.level >= 2) return recent
  if (!(await hasConfirmedFactor(context.config.adapter, recent.current.userId))) return recent
  return requireRecentSession(context, { level: 2, callbackUrl })
}
