/**
 * The `sign-in/` room: how every sign-in ends, whichever flow it came through: `finishSignIn` and
 * `signInAccount` (this module), the app's `signIn` callback (`sign-in-callback.ts`), the account-
 * linking rules (`accounts.ts`), the rule that a user keeps a way in (`ways-in.ts`) and the app's
 * events (`events.ts`). It imports no flow and no route; below it only `session/` and the lower
 * rooms.
 *
 * How every sign-in ends, whichever flow it came through: the linking rules applied to a
 * provider's account, the session started, the `signIn` event sent and the browser sent on.
 * Flows end here; nothing here knows which flow called.
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import { redirect } from "../http/context.js"
import { clearCookie } from "../http/cookies.js"
import { OAuthCallbackError } from "../errors/errors.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { emit } from "./events.js"
import type { RequestContext } from "../internal.js"
import type { Account, Profile, SessionAssurance, User } from "../model.js"
import { readSession, type SignedIn } from "../session/index.js"
import { startSession } from "../session/start.js"
import { askSignIn } from "./sign-in-callback.js"

/**
 * Ends a sign-in: when `mfa` is configured and the user owes a second factor, holds it pending
 * and sends the browser to `{basePath}/mfa` (the gate, fetched only then); otherwise starts the
 * session, sends the `signIn` event (and the audit trail's `signIn` success) and sends the
 * browser to `target` (or to `pages.newUser` first, for a new user).
 *
 * @throws {SessionTokenError} when the `jwt` callback fails.
 * @throws {AdapterError} when the store fails.
 * @throws {Configuration} when `mfa.required` answers anything but a boolean.
 */
export async function finishSignIn(context: RequestContext, signedIn: SignedIn, target: string): Promise<Response> {
  // Whatever the request did before (a passkey added), what ends here is a sign-in.
  auditAs(context, "signIn", signedIn.account?.provider)
  if (context.config.mfa !== undefined) {
    const held = await (await import("../factors/gate.js")).holdSignIn(context, signedIn, target)
    if (held !== undefined) return held
  }
  return redirect(context, await completeAfterGate(context, signedIn, target))
}

/**
 * The end of every sign-in once its user owes nothing more: starts the session, sends the
 * `signIn` event and the audit trail's `signIn` success, and answers where the browser goes
 * (`pages.newUser` first, for a new user). Called by {@link finishSignIn}, and by the second
 * factor's completion of a pending sign-in (`factors/pending.ts`), never by a flow.
 *
 * @throws {SessionTokenError} when the `jwt` callback fails.
 * @throws {AdapterError} when the store fails.
 */
export async function completeAfterGate(context: RequestContext, signedIn: SignedIn, target: string): Promise<string> {
  const { config } = context
  auditAs(context, "signIn", signedIn.account?.provider)
  await startSession(context, signedIn)
  await emit(config, "signIn", { user: signedIn.user, account: signedIn.account, profile: signedIn.profile, isNewUser: signedIn.isNewUser })
  await auditSuccess(context, signedIn.user.id, undefined, signedIn.methods)
  if (context.jar.has(context.cookies.callbackUrl.name)) context.setCookies.push(clearCookie(context.cookies.callbackUrl))
  if (signedIn.isNewUser && config.pages.newUser !== undefined) {
    return resolveCallbackUrl(context, `${config.pages.newUser}${config.pages.newUser.includes("?") ? "&" : "?"}callbackUrl=${encodeURIComponent(target)}`)
  }
  return target
}

/** What a provider callback established, for {@link signInAccount}. */
export interface AccountSignIn {
  user: User & { id: string }
  account: Account
  profile: Profile
  /** Whether the provider vouched for `user.email`. */
  emailVerified: boolean
  /** The user signed in when the flow started (from its sealed, browser-bound state). */
  startedBy: string | undefined
  /** How the user authenticated (`SignedIn.methods`): `["fed"]` for a provider account. */
  methods: string[]
}

/**
 * Ends a sign-in with a provider account (OAuth 2, OAuth 1.0a): asks the `signIn` callback,
 * applies the account-linking rules with an adapter, starts the session and sends the browser on.
 *
 * @throws {AccessDenied} when the `signIn` callback refuses.
 * @throws {OAuthAccountNotLinked} when the linking rules refuse the account.
 * @throws {AdapterError} when the store fails.
 */
export async function signInAccount(context: RequestContext, result: AccountSignIn, allowEmailLinking: boolean): Promise<Response> {
  const { config } = context
  const adapter = config.adapter
  let user: User & { id: string } = result.user
  let isNewUser = false
  let continues: SessionAssurance | undefined
  // The linking rules load with the first sign-in of an app that has an adapter.
  const accounts = adapter === undefined ? undefined : await import("./accounts.js")
  const accountUser = adapter === undefined || accounts === undefined ? null : await accounts.findUser(adapter, result.account)

  const redirectTo = await askSignIn(context, { user: accountUser ?? user, account: result.account, profile: result.profile })
  if (redirectTo !== undefined) return redirect(context, redirectTo)

  if (adapter !== undefined && accounts !== undefined) {
    // Linking to the signed-in user needs both: that user is signed in now, and started this flow.
    // A session cookie planted mid-flow, or a flow started by someone else, links nothing.
    const session = result.startedBy === undefined ? null : await readSession(context)
    const current = session?.userId
    const resolved = await accounts.resolveUser(context, adapter, {
      accountUser,
      profileUser: result.user,
      account: result.account,
      profile: result.profile,
      emailVerified: result.emailVerified,
      allowEmailLinking,
      signedInUserId: current !== undefined && current === result.startedBy ? current : undefined,
    })
    user = resolved.user
    isNewUser = resolved.isNewUser
    // An account linked to the signed-in user is not a sign-in: the session goes on as it was,
    // past the second-factor gate, at its level and times.
    if (session !== null && current === result.startedBy && user.id === current) continues = session.assurance
  }

  const target = context.returnTo ?? (await resolveCallbackUrl(context, undefined))
  return finishSignIn(context, { user, account: result.account, profile: result.profile, isNewUser, methods: result.methods, ...(continues === undefined ? {} : { continues }) }, target)
}

const STRINGIFIED_NOTHING = new Set(["undefined", "null", "NaN", "[object Object]"])

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null
}

/**
 * Checks what the provider's `profile` callback made of the profile, and whether the provider
 * vouches for its email: the profile's `email_verified` is `true` for that same address, or the
 * `profile` callback returned `emailVerified` (a date or `true`) because it knows the provider
 * only hands out verified addresses. For every flow that signs in with a provider account.
 *
 * @throws {OAuthCallbackError} when the callback returned no user or no usable id.
 */
export function checkedUser(provider: { id: string }, user: unknown, profile: Profile): { user: User & { id: string }; emailVerified: boolean } {
  if (typeof user !== "object" || user === null) throw new OAuthCallbackError(`The \`profile\` callback of provider "${provider.id}" returned no user.`)
  const { id, name, email, image, emailVerified, ...rest } = user as Record<string, unknown>
  const userId = typeof id === "number" ? String(id) : id
  // A provider that stringified a missing field would key every such user to one shared account.
  if (typeof userId !== "string" || userId === "" || STRINGIFIED_NOTHING.has(userId)) {
    throw new OAuthCallbackError(`Provider "${provider.id}" returned a profile with no usable id.`)
  }
  const address = text(email)
  const claimed = profile.email_verified === true || profile.email_verified === "true"
  const vouched = (claimed && typeof profile.email === "string" && profile.email.toLowerCase() === address?.toLowerCase()) ||
    emailVerified === true || (emailVerified instanceof Date && !Number.isNaN(emailVerified.getTime()))
  return { user: { ...rest, id: userId, name: text(name), email: address, image: text(image) }, emailVerified: address !== null && vouched }
}
