/**
 * The server's re-authentication guard for an app's own pages and actions (`requireRecentAuth`):
 * the session when its user authenticated recently enough, else where to send the browser.
 * Loaded on its first call: an app that never asks loads none of it.
 */
import type { Adapter } from "../adapters.js"
import type { RequestContext } from "../internal.js"
import { callAdapter } from "../outbound/store.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { signInPageUrl } from "../http/routes.js"
import { checkRecentSession, reauthUrl } from "../session/recent.js"
import type { Session } from "../types.js"

/** What `requireRecentAuth` asks of the session's last authentication. */
export interface RecentAuthCheck {
  /** Seconds since the user last authenticated. Default: `session.reauthAge` (600). */
  maxAge?: number
  /** `2` to ask for a second factor (or a passkey that verified its user) too. Default: `1`. */
  level?: 1 | 2
  /** Where the browser returns after re-authenticating. Default: the page requested. */
  callbackUrl?: string
}

/** What `requireRecentAuth` answers: the session, or where to send the browser. */
export type RecentAuth = { ok: true; session: Session } | { ok: false; url: string }

/**
 * Whether the user has a way to reach level 2 by re-authenticating: a confirmed, unlocked second
 * factor, or a passkey (one that verifies its user makes level 2). Without either, only setting
 * up a factor does.
 */
async function hasSecondFactor(adapter: Adapter | undefined, userId: string): Promise<boolean> {
  if (adapter === undefined) return false
  if (adapter.listAuthFactors !== undefined) {
    const factors = await callAdapter(adapter, "listAuthFactors", userId)
    if (Array.isArray(factors) && factors.some((factor) => factor.type === "totp" && factor.confirmedAt != null && factor.lockedAt == null)) return true
  }
  if (adapter.listAuthenticatorsByUserId === undefined) return false
  const passkeys: unknown = await callAdapter(adapter, "listAuthenticatorsByUserId", userId)
  return Array.isArray(passkeys) && passkeys.length > 0
}

/** Where the browser returns: the page asked for, on the app's own origin. */
function samePage(context: RequestContext): string {
  return new URL(`${context.url.pathname}${context.url.search}`, context.origin).href
}

/**
 * See `requireRecentAuth` (`get-session.ts`): the check of `session/recent.ts`, answered as a URL.
 *
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 */
export async function recentAuth(context: RequestContext, options: RecentAuthCheck): Promise<RecentAuth> {
  const check = await checkRecentSession(context, { maxAge: options.maxAge, level: options.level })
  if (check.ok) return { ok: true, session: check.current.session }
  if (check.error === "ReauthRequired" && options.level === 2 && check.current.assurance.level < 2 && !(await hasSecondFactor(context.config.adapter, check.current.userId))) {
    return { ok: false, url: new URL(`${context.config.basePath}/mfa/setup`, context.origin).href }
  }
  // Checked as every callback URL is (same origin, `allowedOrigins`, the `redirect` callback): an integration may pass the `Referer`.
  const callbackUrl = await resolveCallbackUrl(context, options.callbackUrl ?? samePage(context))
  return { ok: false, url: check.error === "SessionRequired" ? signInPageUrl(context, { callbackUrl }) : reauthUrl(context, callbackUrl) }
}
