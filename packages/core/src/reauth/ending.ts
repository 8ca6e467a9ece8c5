/**
 * How every re-authentication ends, whichever way it went: the proof checked against the signed-in
 * user, then the same session raised (`raiseAssurance`: same record, a new `authTime`), or the
 * refusal. A flow that proved a user again while `context.reauth` was set (or its sealed state
 * says so) ends here instead of in `finishSignIn`: nothing here starts a session, links an account
 * or creates a user.
 */
import type { AdapterAccountKey } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure } from "../audit/trail.js"
import { AccessDenied } from "../errors/flow-errors.js"
import { answerRoute } from "../http/context.js"
import { clearCookie } from "../http/cookies.js"
import { signInPageUrl } from "../http/routes.js"
import type { RequestContext } from "../internal.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { readSession } from "../session/index.js"
import { reauthUrl } from "../session/recent.js"
import { raiseAssurance } from "../session/start.js"

/** What a way proved, for {@link finishReauth}. */
export interface ReauthProof {
  /** The provider it went through (`"totp"` for an authenticator app's code). */
  provider: string
  /** The user the re-authentication was started for (the marker, or the flow's sealed state). */
  startedBy: string
  /**
   * Who the way proved: a user id (`authorize`'s answer, a passkey's owner), an account at the
   * provider (its `sub`), or an address whose single-use link was followed.
   */
  proves: { userId: string } | { account: AdapterAccountKey } | { email: string }
  /** What it adds to the session's methods (`["fed"]`, `["pwd"]`, `["hwk", "user"]`, `["otp", "mfa"]`...). */
  methods: readonly string[]
}

/** Whose the proof is: the user id it names, the account's owner, or the signed-in user when the link went to their own verified address. */
async function provedUser(context: RequestContext, proof: ReauthProof): Promise<string | undefined> {
  const { proves } = proof
  if ("userId" in proves) return proves.userId
  const { adapter } = context.config
  if (adapter === undefined) return undefined
  if ("account" in proves) {
    return storedUser(await callAdapter(adapter, "getUserByAccount", { provider: proves.account.provider, providerAccountId: proves.account.providerAccountId }))?.id
  }
  const user = storedUser(await callAdapter(adapter, "getUser", proof.startedBy))
  const verified = user?.emailVerified !== null && user?.emailVerified !== undefined
  return verified && typeof user.email === "string" && user.email.toLowerCase() === proves.email.toLowerCase() ? user.id : undefined
}

/**
 * Ends a re-authentication: when the way proved the user signed in now, who also started it, the
 * session is raised in place (its methods joined by `proof.methods`, `authTime` now, the level 2
 * when they make one) and the browser sent to `target`; otherwise nothing changes, the refusal is
 * logged and audited (`reauth`, `wrongUser`), and the browser goes back to the page with
 * `error=wrongUser` (or to sign in, when the session is gone).
 *
 * @throws {SessionTokenError} when a callback throws while the session is raised.
 * @throws {AdapterError} when the store fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1, 7.5.3 (re-authentication before sensitive changes)
 */
export async function finishReauth(context: RequestContext, proof: ReauthProof, target: string): Promise<Response> {
  auditAs(context, "reauth", proof.provider)
  if (context.jar.has(context.cookies.callbackUrl.name)) context.setCookies.push(clearCookie(context.cookies.callbackUrl))
  const current = await readSession(context)
  if (current?.userId === undefined) {
    await auditFailure(context, "signInRequired", proof.startedBy)
    return answerRoute(context, { url: signInPageUrl(context, { callbackUrl: target }), error: "SessionRequired", status: 401 })
  }
  const proved = current.userId === proof.startedBy ? await provedUser(context, proof) : undefined
  if (proved === undefined || proved !== current.userId) {
    context.config.logger.error(
      new AccessDenied(`A re-authentication through provider "${proof.provider}" proved another user than the one signed in (or the session changed while it ran): the session is left as it was.`),
    )
    await auditFailure(context, "wrongUser", current.userId)
    return answerRoute(context, { url: reauthUrl(context, target), error: "wrongUser", status: 403 })
  }
  const raised = await raiseAssurance(context, { proved: proof.methods })
  if (raised === null) {
    await auditFailure(context, "signInRequired", current.userId)
    return answerRoute(context, { url: signInPageUrl(context, { callbackUrl: target }), error: "SessionRequired", status: 401 })
  }
  await auditSuccess(context, current.userId, undefined, proof.methods)
  return answerRoute(context, { url: target })
}
