/**
 * Passkey-first sign-up: a new user whose first way in is a passkey.
 *
 * With an email provider configured, the address is confirmed before any user exists, and the
 * registration answers the same whether or not the address has an account (issue 15: a
 * stranger learns neither). Either way the address is mailed a link carrying the verified
 * passkey, sealed together with a digest of that link's verification token, so no other link's
 * token confirms it. Followed, the link creates the account with the passkey, or, when the
 * address has an account by then, signs into it and adds the passkey (its page says which):
 * proving the address is what an email sign-in takes, and the passkey was made in this browser.
 * An account linked to an address it never verified is refused, as an email sign-in is.
 *
 * Without an email provider there is nothing to confirm the address with: the user is created at
 * once with an unverified address, and an address that has an account is refused, which tells
 * that it has one (SECURITY.md says so).
 *
 * Until its link is followed, the browser that made the passkey holds it, and the server does not:
 * a sealed HttpOnly cookie names it (by digest) there, so a sign-in with it meanwhile is told to
 * wait for the link, instead of having the browser forget a passkey the link is about to store.
 *
 * The sign-up link works only in the browser that registered the passkey. Otherwise whoever
 * registers a passkey under someone else's address would have that person, clicking a link they
 * did not ask for, create an account the registrant's passkey opens (account pre-hijacking).
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-registering-a-new-credential
 */
import { auditAs } from "../audit/audit.js"
import { auditStep } from "../audit/trail.js"
import { findUserByEmail } from "../sign-in/accounts.js"
import { askSignIn } from "../sign-in/sign-in-callback.js"
import type { AdapterAuthenticator, AdapterUser } from "../adapters.js"
import { finishSignIn } from "../sign-in/sign-in.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, readForm, redirect } from "../http/context.js"
import { clearCookie } from "../http/cookies.js"
import type { RequestContext } from "../internal.js"
import { browserBinding, csrfToken, verifyCsrf } from "../http/csrf.js"
import { deriveKeys, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe, sha256Base64url } from "../crypto/sealed.js"
import { askEmailSignIn, resolveEmailUser } from "../email/accounts.js"
import { readIdentifier } from "../email/address.js"
import { readLink } from "../email/callback.js"
import type { InternalEmailProvider } from "../email/provider.js"
import { sendVerificationLink } from "../email/signin.js"
import { useToken } from "../email/token.js"
import { AdapterError, WebAuthnVerificationError } from "../errors/flow-errors.js"
import { emit } from "../sign-in/events.js"
import type { FlowProvider } from "../internal.js"
import type { Account, CookieOption } from "../model.js"
import { callbackUrl as callbackRoute, signInPageUrl, verifyRequestUrl } from "../http/routes.js"
import { outboundCallbackUrl } from "../http/outbound-urls.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter } from "../outbound/store.js"
import { aaguidName } from "./aaguid.js"
import { requireBrowser } from "./challenge.js"
import type { WebAuthnOptions } from "./options.js"
import { adapterOf, asUser, attachPasskey, passkeyMethods, storeAuthenticator } from "./records.js"
import { renderConfirmSignUp } from "./signup-page.js"

type Provider = FlowProvider<WebAuthnOptions>

/** A verified passkey not stored yet: its record, less the user it is going to belong to. */
export type NewPasskey = Omit<AdapterAuthenticator, "userId">

/** Who signs up, and with which passkey. */
export interface SignUp {
  email?: string
  name?: string
  passkey: NewPasskey
  /** Whether the authenticator verified the user when it made the passkey (its UV flag). */
  userVerified?: boolean
}

const SALT = "authjs.webauthn-pending"
/** The longest `pending` value read: a sealed registration is well under 1 KB with the usual credential ids. */
const MAX_PENDING = 4096

/** A registration waiting for its address to be confirmed, in short keys: it travels in a URL. */
interface Pending {
  /** The passkey provider's id, origin, and browser binding of the registration. */
  p: string
  o: string
  b: string
  /** The address (the email provider's identifier) and the name to create the user with. */
  e: string
  n?: string
  /** The user handle, then the credential: id, public key, counter, device type, backed up, transports, AAGUID. */
  h: string
  c: string
  k: string
  t: number
  d: string
  s: boolean
  r?: string
  a?: string
  /** Seconds since the epoch: the verification token's expiry. */
  exp: number
  /** The SHA-256 of the verification token mailed with it (base64url): only that token confirms it. */
  v: string
}

const WAITING_SALT = "authjs.webauthn-waiting"
/** How many passkeys waiting for their link a browser remembers: the newest. */
const MAX_WAITING = 8
/** The longest waiting-passkeys cookie read: eight digests and expiries, sealed, are well under 1 KB. */
const MAX_WAITING_COOKIE = 2048

/** The passkeys of this browser waiting for their link: the digest of each credential id, and when its link expires (seconds). */
interface Waiting {
  b: string
  w: [string, number][]
}

function waitingCookie(context: RequestContext, maxAge: number): CookieOption {
  const secure = context.cookies.csrfToken.options.secure === true
  return { name: `${secure ? "__Host-" : ""}authjs.pending-passkey`, options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge } }
}

/** This browser's waiting passkeys, unexpired; none when the cookie is missing, not ours, or another browser's. */
async function readWaiting(context: RequestContext): Promise<[string, number][]> {
  const value = context.jar.get(waitingCookie(context, 0).name)
  if (value === undefined || value === "" || value.length > MAX_WAITING_COOKIE) return []
  const opened = (await openJwe(value, await deriveKeys(context.config.secrets, WAITING_SALT, "jwe")).catch(() => undefined)) as Partial<Waiting> | undefined
  const browser = await browserBinding(context)
  if (opened?.b === undefined || opened.b !== browser || !Array.isArray(opened.w)) return []
  const now = Date.now() / 1000
  return opened.w.filter((entry): entry is [string, number] => Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "number" && entry[1] > now)
}

/** Writes this browser's waiting passkeys, or clears the cookie when none is left. */
async function writeWaiting(context: RequestContext, browser: string, waiting: [string, number][]): Promise<void> {
  const kept = waiting.slice(-MAX_WAITING)
  const last = Math.max(0, ...kept.map(([, exp]) => exp))
  const cookie = waitingCookie(context, Math.max(0, Math.ceil(last - Date.now() / 1000)))
  if (kept.length === 0) {
    context.setCookies.push(clearCookie(cookie))
    return
  }
  const [key] = await deriveKeys(context.config.secrets, WAITING_SALT, "jwe")
  context.setCookies.push({ name: cookie.name, value: await sealJwe({ b: browser, w: kept } satisfies Waiting, key as SecretKey), options: cookie.options })
}

/**
 * Whether this browser made a passkey with this credential id whose sign-up link is still to be
 * followed: the server does not know it yet, and the browser must not be told to forget it.
 */
export async function isWaitingHere(context: RequestContext, credentialID: string): Promise<boolean> {
  const digest = await sha256Base64url(credentialID)
  return (await readWaiting(context)).some(([known]) => known === digest)
}

function emailProviderOf(context: RequestContext): InternalEmailProvider | undefined {
  // Declared `type: "email"`: served by the email flow, whose options are the email provider.
  return context.config.providers.find((provider) => provider.type === "email")?.options as InternalEmailProvider | undefined
}

/**
 * Signs up a new user with a passkey the ceremony verified: by email confirmation when the app
 * has an email provider and the user gave an address, at once otherwise.
 *
 * @throws {WebAuthnVerificationError} without an email provider, when the address has an account.
 * @throws {EmailSignInError} when the address is not one the email provider accepts, or sending failed.
 * @throws {AccessDenied} when the `signIn` callback refuses.
 * @throws {AdapterError} when the store fails.
 */
export async function signUp(context: RequestContext, provider: Provider, who: SignUp, target: string): Promise<Response> {
  const mailer = who.email === undefined ? undefined : emailProviderOf(context)
  if (mailer !== undefined && who.email !== undefined) return confirmByEmail(context, provider, mailer, { ...who, email: who.email }, target)

  const adapter = adapterOf(context)
  const { email, name, passkey } = who
  if (email !== undefined && (await callAdapter(adapter, "getUserByEmail", email)) != null) {
    throw new WebAuthnVerificationError("A passkey for an email that has an account is added by signing in as that account first.")
  }
  return createPasskeyUser(context, provider, { email: email ?? null, name: name ?? null, emailVerified: null }, { passkey, methods: passkeyMethods(who.userVerified === true) }, target)
}

/**
 * Step 1 of a confirmed sign-up: mails the address, and answers the same whether or not it has
 * an account. The `signIn` callback is asked once either way, as for any emailed link
 * (`email.verificationRequest`).
 */
async function confirmByEmail(context: RequestContext, provider: Provider, mailer: InternalEmailProvider, who: SignUp & { email: string }, target: string): Promise<Response> {
  auditAs(context, "emailLinkRequest", provider.id)
  const adapter = adapterOf(context)
  const identifier = readIdentifier(mailer, [who.email])
  const { redirectTo } = await askEmailSignIn(context, { adapter, providerId: mailer.id, identifier, verificationRequest: true })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  // Checked before a token exists, as for any emailed link.
  const route = outboundCallbackUrl(context, provider.id, `Passkey provider "${provider.id}"`)
  const browser = await requireBrowser(context)
  await sendVerificationLink(context, mailer, identifier, async (token, expires) => {
    const pending = await sealPending(context, { ...who, email: identifier }, { provider: provider.id, browser, expires, token })
    return `${route}?${new URLSearchParams({ callbackUrl: target, token, email: identifier, pending }).toString()}`
  })
  const digest = await sha256Base64url(who.passkey.credentialID)
  const waiting = (await readWaiting(context)).filter(([known]) => known !== digest)
  await writeWaiting(context, browser, [...waiting, [digest, Math.floor(Date.now() / 1000) + mailer.maxAge]])
  return redirect(context, verifyRequestUrl(context, mailer.id))
}

async function sealPending(context: RequestContext, signUp: SignUp & { email: string }, bound: { provider: string; browser: string; expires: Date; token: string }): Promise<string> {
  const { passkey } = signUp
  const sealed: Pending = {
    p: bound.provider,
    o: context.origin,
    b: bound.browser,
    e: signUp.email,
    h: passkey.providerAccountId,
    c: passkey.credentialID,
    k: passkey.credentialPublicKey,
    t: passkey.counter,
    d: passkey.credentialDeviceType,
    s: passkey.credentialBackedUp,
    exp: Math.floor(bound.expires.getTime() / 1000),
    v: await sha256Base64url(bound.token),
  }
  if (signUp.name !== undefined) sealed.n = signUp.name
  if (typeof passkey.transports === "string") sealed.r = passkey.transports
  if (typeof passkey.aaguid === "string") sealed.a = passkey.aaguid
  const [key] = await deriveKeys(context.config.secrets, SALT, "jwe")
  return sealJwe(sealed, key as SecretKey)
}

function isPending(value: unknown): value is Pending {
  if (typeof value !== "object" || value === null) return false
  const v = value as Record<string, unknown>
  const strings = ["p", "o", "b", "e", "h", "c", "k", "d", "v"].every((key) => typeof v[key] === "string")
  const optional = ["n", "r", "a"].every((key) => v[key] === undefined || typeof v[key] === "string")
  return strings && optional && typeof v.t === "number" && typeof v.s === "boolean" && typeof v.exp === "number"
}

/**
 * Opens a sign-up link's `pending` registration: sealed by this server, unexpired, for this
 * provider, origin and browser, and for the address and token the link was sent with.
 *
 * @throws {WebAuthnVerificationError} when any of that fails.
 */
async function openPending(context: RequestContext, provider: Provider, value: string | null, link: { email: string; token: string }): Promise<SignUp & { email: string }> {
  const opened = value === null || value === "" || value.length > MAX_PENDING ? undefined : await openJwe(value, await deriveKeys(context.config.secrets, SALT, "jwe")).catch(() => undefined)
  if (!isPending(opened)) throw new WebAuthnVerificationError("The sign-up link's registration was not sealed by this server, or was altered.")
  if (opened.exp < Date.now() / 1000) throw new WebAuthnVerificationError("The sign-up link has expired.")
  if (opened.o !== context.origin || opened.p !== provider.id) throw new WebAuthnVerificationError("The sign-up link is for another origin or provider.")
  if (opened.b !== (await browserBinding(context))) {
    throw new WebAuthnVerificationError("The sign-up link works only in the browser that created the passkey: open it there.")
  }
  if (opened.e !== link.email) throw new WebAuthnVerificationError("The sign-up link's registration is for another address.")
  if (opened.v !== (await sha256Base64url(link.token))) throw new WebAuthnVerificationError("The sign-up link's registration was mailed with another token.")
  const now = new Date()
  const passkey: NewPasskey = {
    credentialID: opened.c,
    providerAccountId: opened.h,
    credentialPublicKey: opened.k,
    counter: opened.t,
    credentialDeviceType: opened.d,
    credentialBackedUp: opened.s,
    transports: opened.r ?? null,
    aaguid: opened.a ?? null,
    name: (opened.a === undefined ? undefined : aaguidName(opened.a)) ?? null,
    createdAt: now,
    lastUsedAt: now,
  }
  return opened.n === undefined ? { email: opened.e, passkey } : { email: opened.e, name: opened.n, passkey }
}

/**
 * `GET|POST /callback/:id?pending=`: a sign-up link. `GET` (what a mail scanner pre-fetching
 * the link also does) shows the confirmation page and uses up nothing; its button `POST`s
 * back, CSRF-checked, and only that uses the single-use token, then creates the user with a
 * verified address and the passkey, or adds the passkey to the address's account, and signs in.
 *
 * @throws {WebAuthnVerificationError} when the link's registration does not open or check out, the
 *   token is unknown, used or expired, or the passkey got registered since.
 * @throws {OAuthAccountNotLinked} when the address's account never verified it (as for an email sign-in).
 * @throws {Verification} when the link is malformed.
 * @throws {MissingCSRF} when the confirmation form's CSRF token does not check out.
 * @throws {AccessDenied} when the `signIn` callback refuses.
 * @throws {AdapterError} when the store fails.
 */
export async function signUpLink(context: RequestContext, provider: Provider): Promise<Response> {
  const mailer = emailProviderOf(context)
  if (mailer === undefined) throw new WebAuthnVerificationError(`Provider "${provider.id}" sends sign-up links only with an email provider configured.`)
  const pendingValues = context.url.searchParams.getAll("pending")
  if (pendingValues.length !== 1) throw new WebAuthnVerificationError("The sign-up link must carry exactly one `pending` parameter.")
  const sealed = pendingValues[0] ?? null
  const post = context.request.method === "POST"
  const form = post ? await readForm(context.request) : context.url.searchParams
  if (post) await verifyCsrf(context, form.get("csrfToken"))
  const link = readLink(form)
  context.sensitive.add(link.token)
  if (sealed !== null) context.sensitive.add(sealed)
  const target = await resolveCallbackUrl(context, link.callbackUrl)
  if (link.callbackUrl !== null) context.returnTo = target
  const waiting = await openPending(context, provider, sealed, link)

  if (!post) {
    const action = new URL(callbackRoute(context, provider.id))
    action.searchParams.set("pending", sealed ?? "")
    const callbackUrl = link.callbackUrl === null ? undefined : target
    const page = renderConfirmSignUp({
      theme: context.config.theme,
      homeUrl: context.origin,
      action: action.href,
      csrfToken: await csrfToken(context),
      email: link.email,
      name: waiting.name,
      existing: (await findUserByEmail(adapterOf(context), link.email)) !== null,
      token: link.token,
      callbackUrl,
      signInUrl: signInPageUrl(context, { callbackUrl }),
    })
    return html(context, page)
  }

  const adapter = adapterOf(context)
  if (!(await useToken(context.config, adapter, mailer, link.email, link.token))) throw new WebAuthnVerificationError("The sign-up link is unknown, used already, or expired.")
  // Stored below or never: either way it no longer waits for this link.
  const digest = await sha256Base64url(waiting.passkey.credentialID)
  const others = await readWaiting(context)
  if (others.some(([known]) => known === digest)) await writeWaiting(context, (await browserBinding(context)) ?? "", others.filter(([known]) => known !== digest))
  // The token is spent either way below: the registration is only ever checked once.
  if ((await callAdapter(adapter, "getAuthenticator", waiting.passkey.credentialID)) != null) throw new WebAuthnVerificationError("This passkey was registered already.")
  const existing = await findUserByEmail(adapter, waiting.email)
  if (existing !== null) return addToAccount(context, provider, mailer, { ...waiting, existing }, target)
  // The link proved the address; the passkey, made before it, proved nobody yet.
  return createPasskeyUser(context, provider, { email: waiting.email, name: waiting.name ?? null, emailVerified: new Date() }, { passkey: waiting.passkey, methods: ["email"] }, target)
}

/**
 * Adds a confirmed link's passkey to the account its address has, asking the `signIn` callback
 * first, and signs in. Refused, as an email sign-in is, when that account never verified the
 * address, unless the email provider allows it (`allowDangerousEmailAccountLinking`).
 */
async function addToAccount(
  context: RequestContext,
  provider: Provider,
  mailer: InternalEmailProvider,
  { email, existing, passkey }: SignUp & { email: string; existing: AdapterUser },
  target: string,
): Promise<Response> {
  const adapter = adapterOf(context)
  const account: Account = { provider: provider.id, type: "webauthn", providerAccountId: passkey.providerAccountId }
  const redirectTo = await askSignIn(context, { user: existing, account })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  const { user } = await resolveEmailUser(context, adapter, email, existing, mailer.allowDangerousEmailAccountLinking)
  await attachPasskey(adapter, user, { ...passkey, userId: user.id }, provider.id)
  // A step of the link's sign-in, as linking an account is: the owner hears of the new way in.
  await auditStep(context, "passkeyAdd", user.id)
  const holder = aaguidName(passkey.aaguid)
  await sendNotice(context, user.email, "passkeyAdded", holder === undefined ? undefined : { provider: holder })
  return finishSignIn(context, { user, account: { ...account, userId: user.id }, isNewUser: false, methods: ["email"] }, target)
}

/**
 * Creates the user, links the `webauthn` account and stores the passkey, asking the `signIn`
 * callback first, then signs in. A failure leaves no user behind: one without a passkey could
 * never sign in.
 */
async function createPasskeyUser(
  context: RequestContext,
  provider: Provider,
  fields: { email: string | null; name: string | null; emailVerified: Date | null },
  { passkey, methods }: { passkey: NewPasskey; methods: string[] },
  target: string,
): Promise<Response> {
  const adapter = adapterOf(context)
  const account: Account = { provider: provider.id, type: "webauthn", providerAccountId: passkey.providerAccountId }
  const redirectTo = await askSignIn(context, { user: { id: passkey.providerAccountId, ...fields }, account })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  const user = asUser(await callAdapter(adapter, "createUser", { id: crypto.randomUUID(), ...fields }))
  if (user === undefined) throw new AdapterError("The adapter's `createUser` returned no user with an id.")
  try {
    await callAdapter(adapter, "linkAccount", { ...account, type: "webauthn", userId: user.id })
    await storeAuthenticator(adapter, { ...passkey, userId: user.id })
  } catch (error) {
    await Promise.resolve(callAdapter(adapter, "deleteUser", user.id)).catch((cleanup: unknown) => {
      context.config.logger.error(new AdapterError(`Could not remove user ${user.id} after storing their passkey failed.`, { cause: cleanup }))
    })
    throw error
  }
  await emit(context.config, "createUser", { user })
  await emit(context.config, "linkAccount", { user, account: { ...account, userId: user.id }, profile: user })
  return finishSignIn(context, { user, account: { ...account, userId: user.id }, isNewUser: true, methods }, target)
}
