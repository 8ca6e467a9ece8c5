/**
 * Following a sign-in link. `GET` (what a mail scanner pre-fetching the link also does) only
 * shows a confirmation page; its button `POST`s the link's parameters back, CSRF-checked, and
 * only that uses the single-use token.
 */
import { finishSignIn } from "../sign-in/sign-in.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, readForm, redirect } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { csrfToken, verifyCsrf } from "../http/csrf.js"
import { Verification } from "../errors/flow-errors.js"
import { renderConfirmSignIn } from "../pages/email.js"
import { callbackUrl as callbackRoute } from "../http/routes.js"
import { askEmailSignIn, resolveEmailUser } from "./accounts.js"
import { isSingleAddress } from "./address.js"
import type { InternalEmailProvider } from "./provider.js"
import { emailAdapter } from "./signin.js"
import { MAX_TOKEN, useToken } from "./token.js"

/** The parameters a sign-in link carries. */
export interface LinkParams {
  token: string
  email: string
  callbackUrl: string | null
}

function single(params: URLSearchParams, name: string, required: boolean): string | null {
  const values = params.getAll(name)
  if (values.length > 1) throw new Verification(`The sign-in link repeats the parameter "${name}".`)
  const value = values[0] ?? null
  if (required && (value === null || value === "")) throw new Verification(`The sign-in link has no \`${name}\`.`)
  return value
}

/**
 * The link's parameters, checked. The address is not normalised again: it is the identifier
 * the token was stored under.
 *
 * @throws {Verification} when a parameter is missing, repeated or malformed.
 */
export function readLink(params: URLSearchParams): LinkParams {
  const token = single(params, "token", true) as string
  const email = single(params, "email", true) as string
  const callbackUrl = single(params, "callbackUrl", false)
  if (token.length > MAX_TOKEN) throw new Verification("The sign-in link's token is too long.")
  if (!isSingleAddress(email)) throw new Verification("The sign-in link's email is not one plain address.")
  return { token, email, callbackUrl }
}

/**
 * `GET /callback/:id` of an email provider: the confirmation page. Nothing is used up.
 *
 * @throws {Verification} when the link is malformed.
 */
export async function confirmationPage(context: RequestContext, provider: InternalEmailProvider): Promise<Response> {
  const link = readLink(context.url.searchParams)
  const page = renderConfirmSignIn({
    theme: context.config.theme,
    homeUrl: context.origin,
    // A re-authentication's link is confirmed where it was sent: the re-authentication route.
    action: context.reauth === undefined ? callbackRoute(context, provider.id) : `${context.authUrl}/reauth/${encodeURIComponent(provider.id)}`,
    csrfToken: await csrfToken(context),
    email: link.email,
    token: link.token,
    callbackUrl: link.callbackUrl === null ? undefined : await resolveCallbackUrl(context, link.callbackUrl),
  })
  return html(context, page)
}

/**
 * `POST /callback/:id` of an email provider: uses the link's token and returns the verified
 * address and the page to return to.
 *
 * @throws {MissingCSRF} when the confirmation form's CSRF token does not check out.
 * @throws {Verification} when the token is unknown, already used, expired, or the link malformed.
 * @throws {AdapterError} when the store fails.
 */
export async function verifySignInLink(
  context: RequestContext,
  provider: InternalEmailProvider,
  form: URLSearchParams,
): Promise<{ identifier: string; callbackUrl: string | null }> {
  await verifyCsrf(context, form.get("csrfToken"))
  const link = readLink(form)
  context.sensitive.add(link.token)
  const used = await useToken(context.config, emailAdapter(context, provider), provider, link.email, link.token)
  if (!used) throw new Verification(`The sign-in link of provider "${provider.id}" is unknown, already used or expired.`)
  return { identifier: link.email, callbackUrl: link.callbackUrl }
}

/**
 * `GET|POST /callback/:id` of an email provider: the confirmation page (GET), or the sign-in
 * with the link's token (POST). Reached through a dynamic import, so an app without an email
 * provider never loads this flow.
 *
 * @throws {Verification} when the link is malformed, unknown, used or expired.
 * @throws {AccessDenied} when the `signIn` callback refuses.
 * @throws {OAuthAccountNotLinked} when the address belongs to a user whose email was never verified.
 */
export async function emailCallback(context: RequestContext, provider: InternalEmailProvider): Promise<Response> {
  if (context.request.method !== "POST") return confirmationPage(context, provider)
  const { identifier, callbackUrl: requested } = await verifySignInLink(context, provider, await readForm(context.request))
  if (context.reauth !== undefined) {
    // Asked by the re-authentication page: the used link must have gone to the signed-in user's own verified address.
    const proof = { provider: provider.id, startedBy: context.reauth.userId, proves: { email: identifier }, methods: ["email"] }
    return (await import("../reauth/ending.js")).finishReauth(context, proof, await resolveCallbackUrl(context, requested))
  }
  const adapter = emailAdapter(context, provider)
  const { existing, account, redirectTo } = await askEmailSignIn(context, { adapter, providerId: provider.id, identifier })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  const { user, isNewUser } = await resolveEmailUser(context, adapter, identifier, existing, provider.allowDangerousEmailAccountLinking)
  return finishSignIn(context, { user, account: { ...account, userId: user.id }, isNewUser, methods: ["email"] }, await resolveCallbackUrl(context, requested))
}
