/**
 * Starting the session of a user who just signed in, for both strategies. Only the one sign-in
 * ending (`sign-in/sign-in.ts`) calls it, and it loads with that ending: an app's session reads
 * never load it.
 */
import { keepsSessionRecords } from "../adapters.js"
import { SessionTokenError } from "../errors/errors.js"
import { AccessDenied } from "../errors/flow-errors.js"
import type { RequestContext } from "../internal.js"
import type { JWT } from "../types.js"
import { loadDatabaseSessions, sealToken, sessionRecords, withSessionId, writeTokenCookie } from "./index.js"
import type { SignedIn } from "./source.js"

/**
 * Starts the session of a user who just signed in.
 *
 * @throws {AccessDenied} when the `jwt` callback returns `null`.
 * @throws {SessionTokenError} when the token cannot be sealed.
 */
export async function startSession(context: RequestContext, signedIn: SignedIn): Promise<void> {
  const { config } = context
  // A read of the previous session earlier in this request may have queued its own cookie.
  const name = context.cookies.sessionToken.name
  context.setCookies = context.setCookies.filter((cookie) => cookie.name !== name && !cookie.name.startsWith(`${name}.`))
  if (config.session.strategy === "database") {
    await (await loadDatabaseSessions()).startDatabaseSession(context, signedIn)
    return
  }
  const { user } = signedIn
  let token: JWT | null = { name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null, sub: user.id }
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
  const recorded = !keepsSessionRecords(config.adapter) ? undefined : await (await sessionRecords()).recordSignIn(context, {
    userId: user.id,
    provider: account?.provider,
    profile: signedIn.profile,
    sessionToken: null,
    expires: new Date(Date.now() + config.jwt.maxAge * 1000),
  })
  token = withSessionId(token, recorded)
  writeTokenCookie(context, await sealToken(context, token), config.jwt.maxAge)
}
