/**
 * Starting an email sign-in: the address checked, the `signIn` callback asked, a token
 * stored (as its HMAC), and the link handed to the provider's `sendVerificationRequest`.
 */
import type { Adapter } from "../adapters.js"
import { auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser, withAuditReason } from "../audit/trail.js"
import type { ReauthMarker, RequestContext } from "../internal.js"
import { AuthError, Configuration } from "../errors/errors.js"
import { EmailSignInError } from "../errors/errors.js"
import { mailboxKey } from "../limits/mailbox-key.js"
import { rateLimitsOf, targetKey } from "../limits/rate-limit.js"
import { verifyRequestUrl } from "../http/routes.js"
import { outboundCallbackUrl } from "../http/outbound-urls.js"
import { askEmailSignIn } from "./accounts.js"
import { readIdentifier } from "./address.js"
import type { InternalEmailProvider } from "./provider.js"
import { createToken, useToken } from "./token.js"
import { callAdapter, storedUser } from "../outbound/store.js"

/** The adapter email sign-in needs; configuration checks make its absence unreachable. */
export function emailAdapter(context: RequestContext, provider: InternalEmailProvider): Adapter {
  const adapter = context.config.adapter
  if (adapter === undefined) throw new Configuration(`Provider "${provider.id}" (type "email") needs an \`adapter\`.`)
  return adapter
}

/**
 * Sends a sign-in link to the submitted address and returns where the browser goes next: the
 * "check your email" page, or the URL the `signIn` callback chose instead. The answer is the
 * same whether or not a user has the address.
 *
 * @throws {EmailSignInError} when the address is not one valid address, or sending failed.
 * @throws {AccessDenied} when the `signIn` callback refuses.
 * @throws {AdapterError} when the store fails.
 */
export async function sendSignInLink(
  context: RequestContext,
  provider: InternalEmailProvider,
  params: { form: URLSearchParams; callbackUrl: string },
): Promise<string> {
  const adapter = emailAdapter(context, provider)
  const identifier = readIdentifier(provider, params.form.getAll("email"))
  const { existing, redirectTo } = await askEmailSignIn(context, { adapter, providerId: provider.id, identifier, verificationRequest: true })
  if (redirectTo !== undefined) return redirectTo
  auditUser(context, existing?.id)

  // Checked before a token exists: a link to an origin taken from a forged Host header would
  // hand the victim's token to whoever named that host.
  const route = outboundCallbackUrl(context, provider.id, `Email provider "${provider.id}"`)
  await sendVerificationLink(context, provider, identifier, (token) => `${route}?${new URLSearchParams({ callbackUrl: params.callbackUrl, token, email: identifier }).toString()}`)
  return verifyRequestUrl(context, provider.id)
}

/**
 * Sends a re-authentication link to the signed-in user's own address, when it is verified (see
 * `RequestContext.reauth`): nothing the request carries names the address. The link leads to
 * `{basePath}/reauth/:id`, whose confirmation page posts it back there. Answers the "check your
 * email" page, whether or not a link went out.
 *
 * @throws {EmailSignInError} when building or sending the link failed.
 * @throws {AdapterError} when the store fails.
 */
export async function sendReauthLink(context: RequestContext, provider: InternalEmailProvider, reauth: ReauthMarker, callbackUrl: string): Promise<string> {
  const adapter = emailAdapter(context, provider)
  const user = storedUser(await callAdapter(adapter, "getUser", reauth.userId))
  if (user?.email == null || user.emailVerified == null) {
    context.config.logger.warn("ReauthNoAddress", `Provider "${provider.id}": the signed-in user has no verified address to send a re-authentication link to.`)
    await auditFailure(context, "invalidRequest", reauth.userId)
    return verifyRequestUrl(context, provider.id)
  }
  auditUser(context, user.id)
  const identifier = user.email
  const route = outboundCallbackUrl(context, provider.id, `Email provider "${provider.id}"`, undefined, "reauth")
  await sendVerificationLink(context, provider, identifier, (token) => `${route}?${new URLSearchParams({ callbackUrl, token, email: identifier }).toString()}`)
  return verifyRequestUrl(context, provider.id)
}

/**
 * Stores a verification token for `identifier` and hands the provider's
 * `sendVerificationRequest` the link `makeUrl` builds around it; the token of a link that was
 * not sent is removed. At most `rateLimit.mailPerAddress` mails go to one address in a window:
 * past it, nothing is stored or sent, and the caller answers as usual. Ends the operation under
 * way (an `emailLinkRequest`) in the audit trail: sent, or refused as `rateLimited`. Build the
 * link's origin with `outboundCallbackUrl` before calling.
 *
 * @throws {EmailSignInError} when building or sending the link failed.
 * @throws {AdapterError} when the store fails.
 * @example
 * ```ts
 * await sendVerificationLink(context, provider, "ada@example.com", (token) => `${route}?token=${token}&email=ada%40example.com`)
 * ```
 */
export async function sendVerificationLink(
  context: RequestContext,
  provider: InternalEmailProvider,
  identifier: string,
  makeUrl: (token: string, expires: Date) => string | Promise<string>,
): Promise<void> {
  const { config } = context
  const adapter = emailAdapter(context, provider)
  const limits = rateLimitsOf(config)
  if (limits !== undefined) {
    // Over the limit nothing is stored or sent, and the caller answers as for a sent link: the
    // limit tells nobody anything about the address.
    // Counted per inbox, not per spelling: `Ada+1@…`, `ａｄａ@…` and `ada@…` share one allowance.
    const { count } = await limits.store.hit(await targetKey("mail", mailboxKey(identifier)), limits.mail.windowSeconds)
    if (count > limits.mail.limit) {
      config.logger.warn("MailLimit", `Provider "${provider.id}": an address was sent ${String(limits.mail.limit)} sign-in mails within ${String(limits.mail.windowSeconds)} s; no more is sent until then (\`rateLimit.mailPerAddress\`).`)
      await auditFailure(context, "rateLimited")
      return
    }
  }
  const { token, expires } = await createToken(config, adapter, provider, identifier)
  context.sensitive.add(token)
  try {
    const url = await makeUrl(token, expires)
    await provider.sendVerificationRequest({
      identifier,
      url,
      expires,
      provider: provider.source,
      token,
      request: context.request,
      theme: config.theme,
    })
  } catch (cause) {
    // A link that was never sent must not stay usable.
    await useToken(config, adapter, provider, identifier, token).catch((error: unknown) => {
      config.logger.error(error instanceof AuthError ? error : new EmailSignInError("The unsent token could not be removed.", { cause: error }))
    })
    throw withAuditReason(new EmailSignInError(`The \`sendVerificationRequest\` of provider "${provider.id}" failed.`, { cause }), "providerError")
  }
  await auditSuccess(context)
}
