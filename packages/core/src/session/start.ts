/**
 * Starting the session of a user who just signed in, for both strategies. Only the one sign-in
 * ending (`sign-in/sign-in.ts`) calls it, and it loads with that ending: an app's session reads
 * never load it.
 */
import { keepsSessionRecords } from "../adapters.js"
import { SessionTokenError } from "../errors/errors.js"
import { AccessDenied } from "../errors/flow-errors.js"
import type { RequestContext } from "../internal.js"
import type { SessionAssurance } from "../model.js"
import type { JWT } from "../types.js"
import { ASSURANCE_CLAIM, assuranceClaim, copyAssurance, newAssurance, raisedAssurance, reprovedAssurance, withReservedClaims } from "./assurance.js"
import { loadDatabaseSessions, readSession, resealSession, sealToken, sessionRecords, writeTokenCookie } from "./index.js"
import { SESSION_ID_CLAIM, type SignedIn } from "./source.js"

/**
 * Starts the session of a user who just signed in. A sign-in that continues the request's own
 * session (`continues`: an account linked or a passkey added while signed in) keeps that session,
 * as Auth.js keeps a database session then: its record and id stay, so the devices list does not
 * gain a second entry for the same browser, nor keep the old cookie's session alive beside it.
 *
 * @throws {AccessDenied} when the `jwt` callback returns `null`.
 * @throws {SessionTokenError} when the token cannot be sealed.
 */
export async function startSession(context: RequestContext, signedIn: SignedIn): Promise<void> {
  const { config } = context
  const current = signedIn.continues === undefined ? null : await readSession(context)
  const kept = current?.userId === signedIn.user.id ? current : null
  // A database session goes on as it is: its row, its cookie.
  if (kept !== null && config.session.strategy === "database" && kept.sessionToken !== undefined) return
  // A read of the previous session earlier in this request may have queued its own cookie.
  const name = context.cookies.sessionToken.name
  context.setCookies = context.setCookies.filter((cookie) => cookie.name !== name && !cookie.name.startsWith(`${name}.`))
  const assurance = signedIn.continues === undefined ? newAssurance(signedIn.methods, Math.floor(Date.now() / 1000)) : copyAssurance(signedIn.continues)
  if (config.session.strategy === "database") {
    await (await loadDatabaseSessions()).startDatabaseSession(context, signedIn, assurance)
    return
  }
  const { user } = signedIn
  let token: JWT | null = { name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null, sub: user.id, [ASSURANCE_CLAIM]: copyAssurance(assurance) }
  if (config.callbacks.jwt !== undefined) {
    try {
      token = await config.callbacks.jwt({
        token,
        user,
        account: signedIn.account,
        profile: signedIn.profile,
        trigger: signedIn.isNewUser ? "signUp" : "signIn",
        isNewUser: signedIn.isNewUser,
      })
    } catch (cause) {
      throw new SessionTokenError("The `jwt` callback threw during sign-in.", { cause })
    }
    if (token === null || typeof token !== "object") throw new AccessDenied("The `jwt` callback returned no token for this sign-in.")
  }
  const { account } = signedIn
  const provider = account === null ? undefined : config.providersById.get(account.provider)
  // Without an adapter the cookie is the only store: the provider's flow may keep its tokens there.
  if (account !== null && config.adapter === undefined && provider?.flow.sessionToken !== undefined) {
    token = await provider.flow.sessionToken(provider.options, token, account)
  }
  const keptId = kept?.token?.[SESSION_ID_CLAIM]
  const recorded = typeof keptId === "string" ? keptId : !keepsSessionRecords(config.adapter) ? undefined : await (await sessionRecords()).recordSignIn(context, {
    userId: user.id,
    provider: account?.provider,
    profile: signedIn.profile,
    sessionToken: null,
    expires: new Date(Date.now() + config.jwt.maxAge * 1000),
  })
  token = withReservedClaims(token, { sessionId: recorded, assurance: await assuranceClaim(config.secrets, assurance) })
  writeTokenCookie(context, await sealToken(context, token), config.jwt.maxAge)
}

/**
 * Raises the request's session after the user authenticated again: `add` (a second factor typed in
 * a signed-in session) joins its methods; `proved` (a re-authentication) replaces them, so the level
 * is what that proof reached. Either way the level is recomputed and `authTime` moves to now, while
 * `signedInAt` and the session (its id, its record) stay. A JWT session is re-sealed; a database
 * session's record is updated. Answers the new assurance, or `null` when the request has no session.
 *
 * @throws {SessionTokenError} when a callback throws or the token cannot be sealed.
 * @throws {AdapterError} when the store fails.
 */
export async function raiseAssurance(context: RequestContext, raise: { add: readonly string[] } | { proved: readonly string[] }): Promise<SessionAssurance | null> {
  const current = await readSession(context)
  if (current === null) return null
  const now = Math.floor(Date.now() / 1000)
  const assurance = "proved" in raise ? reprovedAssurance(current.assurance, raise.proved, now) : raisedAssurance(current.assurance, raise.add, now)
  if (context.config.session.strategy === "database") {
    if (current.sessionToken === undefined) return null
    await (await loadDatabaseSessions()).storeAssurance(context, current.sessionToken, current.userId, assurance)
  } else if (current.token !== undefined) {
    const claim = await assuranceClaim(context.config.secrets, assurance)
    await resealSession(context, withReservedClaims(current.token, { sessionId: current.token[SESSION_ID_CLAIM], assurance: claim }))
  }
  return copyAssurance(assurance)
}
