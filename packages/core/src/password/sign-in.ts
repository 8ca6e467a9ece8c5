/**
 * `POST /callback/:id` of a `Password()` provider: the address and password checked against the
 * stored hash, under the lockout of `rateLimit.credentials`, then the sign-in ended by
 * `finishSignIn` (so a user with a second factor goes through its gate). An unknown address runs
 * the same hash as a known one and is refused with the same answer.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html NIST SP 800-63B rev 4 §3.2.2 (rate limiting)
 */
import type { AdapterUser } from "../adapters.js"
import { withAuditReason } from "../audit/trail.js"
import { InvalidProvider } from "../errors/errors.js"
import { CredentialsSignin } from "../errors/flow-errors.js"
import { redirect } from "../http/context.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import type { Account } from "../model.js"
import { findUserByEmail } from "../sign-in/accounts.js"
import { askSignIn } from "../sign-in/sign-in-callback.js"
import { finishSignIn } from "../sign-in/sign-in.js"
import { failedPasswords, readAddress, readPostedForm } from "./form.js"
import { spendVerifyCost, verifyPassword, hashPassword } from "./hash.js"
import { mailLink } from "./links.js"
import type { InternalPasswordProvider } from "./options.js"
import { passwordStore } from "./store.js"

function refused(provider: InternalPasswordProvider, reason?: "rateLimited"): CredentialsSignin {
  const error = new CredentialsSignin(`The address or the password of a sign-in with provider "${provider.id}" was not right.`)
  return reason === undefined ? error : withAuditReason(error, reason)
}

/**
 * The user whose stored hash `password` matches, re-hashed when its hash is legacy or of older
 * parameters; `undefined` for a wrong password or an unknown address (which spends the same cost).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function checkPassword(context: RequestContext, provider: InternalPasswordProvider, address: string, password: string): Promise<AdapterUser | undefined> {
  const adapter = context.config.adapter
  const store = passwordStore(context, provider.store)
  const user = adapter === undefined ? null : await findUserByEmail(adapter, address)
  const stored = user === null ? null : await store.get(user.id)
  if (user === null || stored === null) {
    await spendVerifyCost(password)
    return undefined
  }
  const { ok, rehash } = await verifyPassword(stored, password, provider.legacy === undefined ? undefined : { legacy: provider.legacy })
  if (!ok) return undefined
  if (rehash) {
    // The sign-in goes on with the old hash still valid: a store that fails here is retried on the next.
    await hashPassword(password)
      .then((hash) => store.set(user.id, hash))
      .catch((error: unknown) => {
        context.config.logger.warn("PasswordRehash", `A password hash was not upgraded to today's parameters: ${error instanceof Error ? error.message : "the store failed"}.`)
      })
  }
  return user
}

/**
 * Signs in with `{ csrfToken, email, password, callbackUrl? }`.
 *
 * @throws {InvalidProvider} for a request that is not a POST.
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {CredentialsSignin} for a wrong address or password (the same answer either way), a
 *   paused account, or (`code: "unverified"`, only to whoever knows the password) an address still to be confirmed.
 * @throws {AccessDenied} when the `signIn` callback refuses.
 */
export async function passwordCallback(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const options = provider.options
  if (context.request.method !== "POST") throw new InvalidProvider(`Provider "${provider.id}" (Password) signs in by POSTing its form to this route.`)
  const { fields, target, malformed } = await readPostedForm(context, ["email", "password"])
  const address = readAddress(fields.email)
  const password = fields.password ?? ""
  if (malformed || address === undefined || password === "") {
    // Refused before any hash: nothing about an account is looked at.
    throw new CredentialsSignin(`The sign-in form of provider "${provider.id}" did not send one address and one password.`, { code: "invalid_input" })
  }
  const attempts = await failedPasswords(context, provider.id, address)
  // Counted before the hash runs, in one atomic step: parallel guesses cannot all pass a check
  // made before any of them was counted. A success forgets the count.
  if (attempts !== undefined && (await attempts.store.hit(attempts.key, attempts.windowSeconds)).count > attempts.failures) throw refused(options, "rateLimited")
  const user = await checkPassword(context, options, address, password)
  if (user === undefined) throw refused(options)
  if (attempts !== undefined) await attempts.store.reset(attempts.key)
  if (context.reauth !== undefined) {
    return (await import("../reauth/ending.js")).finishReauth(context, { provider: provider.id, startedBy: context.reauth.userId, proves: { userId: user.id }, methods: ["pwd"] }, target)
  }
  if (options.requireEmailVerification && user.emailVerified == null) {
    // Only someone who knows the password learns this; the link goes to the address, not to them.
    await mailLink(context, "verify", user)
    throw withAuditReason(new CredentialsSignin(`The account of this sign-in with provider "${provider.id}" has not confirmed its address yet: a new link was mailed.`, { code: "unverified" }), "unverified")
  }
  const account: Account = { provider: provider.id, type: "credentials", providerAccountId: user.id, userId: user.id }
  const redirectTo = await askSignIn(context, { user, account })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  return finishSignIn(context, { user, account, isNewUser: false, methods: ["pwd"] }, target)
}
