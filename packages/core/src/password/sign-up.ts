/**
 * `{basePath}/password/signup` and `/password/verify`: a new password account, and the mailed link
 * that confirms its address. A sign-up for an address that has an account already answers exactly
 * as one for a new address (status, body, cookies), runs the same hash, attaches no password,
 * and mails the owner a notice instead: the form tells nobody which addresses have accounts.
 * Only with `requireEmailVerification: false` (a sign-up then signs in at once) does a taken
 * address answer differently.
 *
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 6.3.8 (no account enumeration)
 */
import type { AdapterUser } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser } from "../audit/trail.js"
import { AdapterError } from "../errors/flow-errors.js"
import { answerRoute, redirect } from "../http/context.js"
import { csrfToken } from "../http/csrf.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import type { Account } from "../model.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { createUserOrWinner, findUserByEmail } from "../sign-in/accounts.js"
import { emit } from "../sign-in/events.js"
import { askSignIn } from "../sign-in/sign-in-callback.js"
import { finishSignIn } from "../sign-in/sign-in.js"
import { readAddress, readPostedForm } from "./form.js"
import { hashPassword } from "./hash.js"
import { isLinkToken, mailLink, mayMail, useLink } from "./links.js"
import type { InternalPasswordProvider } from "./options.js"
import { routeUrl, signUpPage, verifyPage } from "./pages.js"
import { checkNewPassword } from "./rules.js"
import { passwordStore } from "./store.js"

/** The longest name kept from the form. */
const MAX_NAME = 256

/** `GET /password/signup`: the form (`?sent=1`: what happens next). */
export async function signUpForm(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const query = context.url.searchParams
  const requested = query.get("callbackUrl")
  const callbackUrl = requested === null ? undefined : await resolveCallbackUrl(context, requested)
  const { minLength, maxLength } = provider.options.rules
  return signUpPage(context, { csrfToken: await csrfToken(context), callbackUrl, rules: { minLength, maxLength }, error: query.get("error"), sent: query.get("sent") === "1" })
}

/**
 * The owner of a taken address gets a notice (within the address's mail allowance), never a
 * password: the sign-up ends as a refusal only the audit trail sees.
 */
async function taken(context: RequestContext, owner: AdapterUser): Promise<void> {
  // Not awaited: the answer must not wait on the mail, or its time would tell the address is taken.
  void (async () => {
    if (typeof owner.email === "string" && (await mayMail(context, owner.email))) await sendNotice(context, owner.email, "passwordSignUpTaken")
  })().catch(() => undefined)
  await auditFailure(context, "addressTaken", owner.id)
}

/**
 * Writes the new user's hash; a user whose hash could not be written is deleted again, so that
 * the address is free for a retry.
 *
 * @throws {AdapterError} when the store fails.
 */
async function storeFirstHash(context: RequestContext, provider: InternalPasswordProvider, user: AdapterUser, hash: string): Promise<void> {
  try {
    await passwordStore(context, provider.store).set(user.id, hash)
  } catch (error) {
    const adapter = context.config.adapter
    if (adapter !== undefined) await Promise.resolve(callAdapter(adapter, "deleteUser", user.id)).catch((cleanup: unknown) => {
      context.config.logger.error(new AdapterError(`Could not remove user ${user.id} after storing their password failed.`, { cause: cleanup }))
    })
    throw error
  }
}

/**
 * `POST /password/signup { csrfToken, email, password, name?, callbackUrl? }`: creates the account
 * and mails the link that confirms its address; answers the "check your email" page whether the
 * address was new or taken.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {AdapterError} when the store fails.
 */
export async function signUp(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const { config } = context
  const options = provider.options
  auditAs(context, "passwordSignUp", provider.id)
  const adapter = config.adapter
  if (adapter === undefined) throw new AdapterError(`Provider "${provider.id}" (Password) needs an adapter.`)
  const { fields, target, requested, malformed } = await readPostedForm(context, ["email", "password", "name"])
  const callbackUrl = requested ? target : undefined
  const form = routeUrl(context, "signup", { callbackUrl })
  const address = readAddress(fields.email)
  if (malformed || address === undefined) {
    await auditFailure(context, "invalidRequest")
    return answerRoute(context, { url: form, error: "invalidEmail" })
  }
  // The rules answer the same for every address: a refusal here tells nothing about accounts.
  const name = fields.name?.trim().slice(0, MAX_NAME)
  // The account's own address (and name) is as guessable as a common password.
  const checked = await checkNewPassword(context, options.rules, fields.password ?? "", [address, fields.email, name])
  if (!checked.ok) {
    await auditFailure(context, "passwordRefused")
    return answerRoute(context, { url: form, error: checked.reason })
  }
  const existing = await findUserByEmail(adapter, address)
  // The hash runs whether the address is taken or not: the answer's time tells nothing either.
  const hash = await hashPassword(checked.password)
  const resolved =
    existing === null
      ? await createUserOrWinner(config, adapter, {
          fields: { email: address, emailVerified: null, name: name === undefined || name === "" ? null : name },
          // Two sign-ups of one new address at once: the store's unique address picks one, the other is a taken address.
          winner: async () => {
            const won = await findUserByEmail(adapter, address)
            return won === null ? null : { user: won, isNewUser: false }
          },
        })
      : { user: existing, isNewUser: false }
  if (!resolved.isNewUser) {
    await taken(context, resolved.user)
    if (!options.requireEmailVerification) return answerRoute(context, { url: form, error: "emailTaken" })
    return answerRoute(context, { url: routeUrl(context, "signup", { sent: "1", callbackUrl }) })
  }
  const user = resolved.user
  await storeFirstHash(context, options, user, hash)
  auditUser(context, user.id)
  await auditSuccess(context, user.id)
  // Not awaited, as the taken path's notice is not: both answers leave at the same time.
  void mailLink(context, "verify", user)
  if (!options.requireEmailVerification) {
    const account: Account = { provider: provider.id, type: "credentials", providerAccountId: user.id, userId: user.id }
    const redirectTo = await askSignIn(context, { user, account })
    if (redirectTo !== undefined) return redirect(context, redirectTo)
    return finishSignIn(context, { user, account, isNewUser: true, methods: ["pwd"] }, target)
  }
  return answerRoute(context, { url: routeUrl(context, "signup", { sent: "1", callbackUrl }) })
}

/** `GET /password/verify?token=`: the page whose button confirms the address (`?done=1`: confirmed). */
export async function verifyForm(context: RequestContext): Promise<Response> {
  const query = context.url.searchParams
  const token = query.get("token")
  return verifyPage(context, { csrfToken: await csrfToken(context), token: isLinkToken(token) ? token : undefined, done: query.get("done") === "1" })
}

/**
 * `POST /password/verify { csrfToken, token }`: confirms the address the link was mailed to, once.
 * Confirming signs nobody in: the account's owner signs in with the password next.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {AdapterError} when the store fails.
 */
export async function verify(context: RequestContext): Promise<Response> {
  const { config } = context
  const { fields } = await readPostedForm(context, ["token"])
  const user = fields.token === undefined ? undefined : await useLink(context, "verify", fields.token)
  if (user === undefined) return answerRoute(context, { url: routeUrl(context, "verify", {}), error: "invalidToken" })
  if (user.emailVerified == null && config.adapter !== undefined) {
    const now = new Date()
    const updated = storedUser(await callAdapter(config.adapter, "updateUser", { id: user.id, emailVerified: now })) ?? { ...user, emailVerified: now }
    await emit(config, "updateUser", { user: updated })
  }
  return answerRoute(context, { url: routeUrl(context, "verify", { done: "1" }) })
}
