/**
 * `POST /callback/:id` of a credentials provider: the form read strictly, `authorize` asked,
 * the session started. Reached through a dynamic import, so an app without a credentials
 * provider never loads this flow.
 */
import { askSignIn } from "../sign-in/sign-in-callback.js"
import { finishSignIn } from "../sign-in/sign-in.js"
import { verifyFormTarget } from "../http/callback-url.js"
import { readForm, redirect } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import type { Adapter, AdapterUser } from "../adapters.js"
import { withAuditReason } from "../audit/trail.js"
import { InvalidProvider } from "../errors/errors.js"
import { CallbackRouteError, CredentialsSignin } from "../errors/flow-errors.js"
import type { Account, User } from "../model.js"
import type { InternalConfig } from "../internal.js"
import { mailboxKey } from "../limits/mailbox-key.js"
import { rateLimitsOf, targetKey } from "../limits/rate-limit.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { authorize, readCredentials } from "./authorize.js"
import type { InternalCredentialsProvider } from "./provider.js"

/**
 * With database sessions, the user `authorize` returned as the adapter stores it: the session
 * row must point at a stored user.
 *
 * @throws {CallbackRouteError} when the adapter has no user with that id.
 * @throws {AdapterError} when the store fails.
 */
async function storedCredentialsUser(adapter: Adapter, user: User & { id: string }, providerId: string): Promise<AdapterUser> {
  const stored = storedUser(await callAdapter(adapter, "getUser", user.id))
  if (stored === undefined) {
    throw new CallbackRouteError(
      `The \`authorize\` of provider "${providerId}" returned user "${user.id}", which the adapter does not store: with database sessions, return a user the adapter's \`getUser\` finds.`,
    )
  }
  return stored
}
/** The counter of failed attempts for the account the form names, when the limit applies. */
async function failedAttempts(config: InternalConfig, provider: InternalCredentialsProvider, credentials: Readonly<Record<string, string>>) {
  const limits = rateLimitsOf(config)
  const submitted = provider.identifierField === undefined ? undefined : credentials[provider.identifierField]
  if (limits === undefined || submitted === undefined) return undefined
  // Folded as an `authorize` commonly folds it (full-width forms, case, a `+tag`), so each such
  // spelling of one account counts against that account's one allowance.
  const identifier = mailboxKey(submitted)
  if (identifier === "") return undefined
  return { store: limits.store, key: await targetKey(`password ${provider.id}`, identifier), failures: limits.credentials.failures, windowSeconds: limits.credentials.windowSeconds }
}

/**
 * Signs in with a submitted credentials form.
 *
 * @throws {InvalidProvider} for a request that is not a POST.
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {CredentialsSignin} when the form is malformed or `authorize` refuses.
 * @throws {AccessDenied} when the `signIn` callback refuses.
 */
export async function credentialsCallback(context: RequestContext, provider: InternalCredentialsProvider): Promise<Response> {
  if (context.request.method !== "POST") {
    throw new InvalidProvider(`Provider "${provider.id}" (type "credentials") signs in by POSTing its form to this route.`)
  }
  const { config } = context
  const form = await readForm(context.request)
  const target = await verifyFormTarget(context, form, form.get("callbackUrl"))
  const credentials = readCredentials(provider, form)
  for (const value of Object.values(credentials)) context.sensitive.add(value)
  const attempts = await failedAttempts(config, provider, credentials)
  let user: User & { id: string }
  try {
    // Each attempt is counted before `authorize` is asked, in one atomic step: concurrent guesses
    // cannot all pass a check made before any of them was counted. A success forgets the count.
    // A paused account is refused as a wrong password would be, and `authorize` is not asked.
    if (attempts !== undefined && (await attempts.store.hit(attempts.key, attempts.windowSeconds)).count > attempts.failures) {
      // The browser cannot tell it from a wrong password; the audit trail can.
      throw withAuditReason(
        new CredentialsSignin(`The password sign-in of an account of provider "${provider.id}" is paused after ${String(attempts.failures)} failed attempts (\`rateLimit.credentials\`).`),
        "rateLimited",
      )
    }
    user = await authorize(provider, credentials, context.request)
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      // Fetched on a refusal only: a sign-in that succeeds never loads it.
      ;(await import("./typed-fields.js")).keepTypedFields(context, provider, credentials)
    }
    throw error
  }
  if (attempts !== undefined) await attempts.store.reset(attempts.key)
  // Asked by the re-authentication page: `authorize` must have answered the signed-in user.
  if (context.reauth !== undefined) {
    return (await import("../reauth/ending.js")).finishReauth(context, { provider: provider.id, startedBy: context.reauth.userId, proves: { userId: user.id }, methods: ["pwd"] }, target)
  }
  if (config.session.strategy === "database" && config.adapter !== undefined) {
    user = await storedCredentialsUser(config.adapter, user, provider.id)
  }
  const account: Account = { provider: provider.id, type: "credentials", providerAccountId: user.id, userId: user.id }
  const redirectTo = await askSignIn(context, { user, account, credentials })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  return finishSignIn(context, { user, account, isNewUser: false, methods: ["pwd"] }, target)
}
