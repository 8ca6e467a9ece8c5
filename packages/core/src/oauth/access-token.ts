/**
 * The signed-in user's access token at an OAuth provider, refreshed when due, with
 * one refresh per account at a time across every instance that shares the adapter's store.
 */
import type { Adapter, AdapterAccount, AdapterAccountKey } from "../adapters.js"
import { createContext } from "../http/context.js"
import { serializeCookie } from "../http/cookies.js"
import { AuthError, Configuration } from "../errors/errors.js"
import { AdapterError, RefreshTokenError } from "../errors/flow-errors.js"
import { httpStatus } from "../errors/errors.js"
import { emit } from "../sign-in/events.js"
import { boundedCache } from "../crypto/caches.js"
import { sha256Base64url } from "../crypto/sealed.js"
import type { AccessToken, FlowProvider, InternalConfig, RequestContext, SetCookieSink } from "../internal.js"
import { sanitizeError } from "../errors/logger.js"
import { providerTokensOf, type CookieTokens } from "../session/cookie-tokens.js"
import { readSession, resealSession, type CurrentSession } from "../session/index.js"
import { callAdapter } from "../outbound/store.js"
import type { InternalOAuthProvider } from "./provider.js"

/** A token this close to its `expires_at` (seconds) is refreshed before it is handed out. */
export const REFRESH_MARGIN_S = 60

/** Refreshes running in this process, per store and account: callers of the same account share one. */
const inFlight = new WeakMap<Adapter, Map<string, Promise<AccessToken>>>()
type AccessTokenRefresh = Awaited<ReturnType<(typeof import("./refresh.js"))["refreshTokens"]>>

/**
 * How long a finished refresh of cookie-kept tokens is handed to cookies that still carry the
 * refresh token it spent (a tab or a retried request that left before the renewed cookie came
 * back): long enough for those to arrive, short enough that a cookie stolen later gains nothing.
 */
export const SPENT_REFRESH_MEMORY_MS = 60_000

/** How many refreshes after a spent one a stale cookie follows to the newest tokens. */
const MAX_HOPS = 8

/** A refresh of cookie-kept tokens, running or finished within {@link SPENT_REFRESH_MEMORY_MS}. */
interface CookieRefresh {
  /** Whose tokens they are (provider, account at it, user): no other session is handed them. */
  owner: string
  tokens: Promise<AccessTokenRefresh>
  /** Milliseconds since the epoch until which a finished refresh is remembered; unset while it runs. */
  until?: number
}

/**
 * Refreshes of tokens kept in session cookies, by the SHA-256 of the refresh token each spent
 * (a short key of fixed size, holding no copy of the token). Per process: cookies cannot be
 * locked, so another instance neither sees these nor waits for them.
 */
const cookieRefreshes = boundedCache<string, CookieRefresh>("refreshes of cookie-kept tokens", 10_000)
/** Stores that lack `withAccountLock` and were warned about once. */
const warned = new WeakSet<Adapter>()

function isFresh(account: Pick<AdapterAccount, "access_token" | "expires_at">, now = Math.floor(Date.now() / 1000)): boolean {
  if (typeof account.access_token !== "string" || account.access_token === "") return false
  return typeof account.expires_at !== "number" || account.expires_at - REFRESH_MARGIN_S > now
}

function tokenOf(account: Pick<AdapterAccount, "access_token" | "expires_at" | "scope" | "token_type">): AccessToken {
  const token: AccessToken = { accessToken: account.access_token ?? "" }
  if (typeof account.expires_at === "number") token.expiresAt = account.expires_at
  if (typeof account.scope === "string") token.scope = account.scope
  if (typeof account.token_type === "string") token.tokenType = account.token_type
  return token
}

/** The request's session, or `undefined` when it has none (or one the request spoiled). */
async function signedInUser(internal: InternalConfig, request: Request): Promise<{ context: RequestContext; current: CurrentSession | null } | undefined> {
  try {
    const context = createContext(internal, request, new URL(request.url))
    const current = await readSession(context)
    return { context, current }
  } catch (thrown) {
    const error = thrown instanceof AuthError ? thrown : new Configuration("An unexpected error occurred while reading the session.", { cause: thrown })
    // As getSession: the server's own faults are thrown, a request's bad cookie or host is "signed out".
    if (httpStatus(error.code) >= 500) throw error
    internal.logger.error(error)
    return undefined
  }
}

/**
 * `getAccessToken` for an OAuth 2.0 / OpenID Connect provider: the tokens on the user's account
 * in the adapter's store, or, without an adapter, in the session cookie (`tokensInCookie`).
 * See `getAccessToken` for the contract.
 *
 * @throws {Configuration} when there is no `adapter` and the provider has no `tokensInCookie`,
 * or the adapter lacks `listAccountsByUserId`, or `updateAccount` and a refresh is due.
 * @throws {RefreshTokenError} when a due refresh fails.
 * @throws {AdapterError} when the adapter fails.
 */
export async function oauthAccessToken(internal: InternalConfig, request: Request, flowProvider: FlowProvider<InternalOAuthProvider>, setCookie?: SetCookieSink): Promise<AccessToken | null> {
  const provider = flowProvider.options
  const adapter = internal.adapter
  if (adapter === undefined) {
    if (!provider.tokensInCookie) {
      throw new Configuration(`getAccessToken: provider tokens are kept on the account an \`adapter\` stores, or, for JWT sessions without one, in the session cookie with \`tokensInCookie: true\` on provider "${provider.id}".`)
    }
    return cookieAccessToken(internal, request, provider, setCookie)
  }
  const signedIn = await signedInUser(internal, request)
  const userId = signedIn?.current?.userId
  if (signedIn === undefined || userId === undefined) return null
  if (typeof adapter.listAccountsByUserId !== "function") {
    throw new Configuration("getAccessToken: the `adapter` has no `listAccountsByUserId` method, which finds the user's account at the provider.")
  }
  const accounts = await callAdapter(adapter, "listAccountsByUserId", userId)
  const account = accounts.find((candidate) => candidate.provider === provider.id)
  if (account === undefined) return null
  if (isFresh(account)) return tokenOf(account)
  return sharedRefresh(signedIn.context, provider, adapter, { provider: account.provider, providerAccountId: account.providerAccountId })
}

/** The refresh of an account that is running in this process, or a new one. */
function sharedRefresh(context: RequestContext, provider: InternalOAuthProvider, adapter: Adapter, key: AdapterAccountKey): Promise<AccessToken> {
  let flights = inFlight.get(adapter)
  if (flights === undefined) {
    flights = new Map()
    inFlight.set(adapter, flights)
  }
  const id = `${key.provider}\u0000${key.providerAccountId}`
  const running = flights.get(id)
  if (running !== undefined) return running
  const refresh = lockedRefresh(context, provider, adapter, key).finally(() => flights.delete(id))
  flights.set(id, refresh)
  return refresh
}

async function lockedRefresh(context: RequestContext, provider: InternalOAuthProvider, adapter: Adapter, key: AdapterAccountKey): Promise<AccessToken> {
  const { config } = context
  if (typeof adapter.updateAccount !== "function") {
    throw new Configuration(`getAccessToken: the access token of provider "${provider.id}" is due for a refresh, and the \`adapter\` has no \`updateAccount\` method to store the new tokens.`)
  }
  const critical = () => refresh(context, provider, adapter, key)
  if (typeof adapter.withAccountLock !== "function") {
    if (!warned.has(adapter)) {
      warned.add(adapter)
      config.logger.warn(
        "RefreshWithoutLock",
        "The `adapter` has no `withAccountLock` method: token refreshes are single-flight within this process only, so instances sharing the store may spend a refresh token twice.",
      )
    }
    return critical()
  }
  try {
    return await adapter.withAccountLock(key, critical)
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new AdapterError("The adapter's `withAccountLock` failed.", { cause: error })
  }
}

/** Inside the account's lock: another instance may have refreshed while this one waited. */
async function refresh(context: RequestContext, provider: InternalOAuthProvider, adapter: Adapter, key: AdapterAccountKey): Promise<AccessToken> {
  const { config } = context
  const fail = async (error: RefreshTokenError): Promise<never> => {
    await emit(config, "refreshTokenError", { ...key, error })
    // The copy keeps the class: callers match `instanceof RefreshTokenError`.
    throw sanitizeError(error, context.sensitive)
  }
  const stored = await callAdapter(adapter, "getAccount", key.providerAccountId, key.provider)
  if (stored === null) return fail(new RefreshTokenError(`The account at provider "${provider.id}" was unlinked while its token was being refreshed.`))
  if (isFresh(stored)) return tokenOf(stored)
  const refreshToken = stored.refresh_token
  if (typeof refreshToken !== "string" || refreshToken === "") {
    return fail(new RefreshTokenError(`The access token of provider "${provider.id}" has expired and the account has no refresh token: ask for one (often the \`offline_access\` scope or \`access_type=offline\`).`))
  }
  context.sensitive.add(refreshToken)
  const refreshExpiry = stored.refresh_token_expires_at
  if (typeof refreshExpiry === "number" && refreshExpiry <= Math.floor(Date.now() / 1000)) {
    return fail(new RefreshTokenError(`The refresh token of provider "${provider.id}" expired at ${new Date(refreshExpiry * 1000).toISOString()} (\`refresh_token_expires_at\`): the user must sign in with it again.`))
  }
  const { refreshTokens, InvalidGrant } = await import("./refresh.js")
  let tokens: Awaited<ReturnType<typeof refreshTokens>>
  try {
    tokens = await refreshTokens(provider, refreshToken, context.sensitive)
  } catch (error) {
    const failure = error instanceof RefreshTokenError ? error : new RefreshTokenError(`The refresh at provider "${provider.id}" failed.`, { cause: error })
    if (failure instanceof InvalidGrant) {
      // An instance without the lock (or one whose lock lapsed) may have spent it and stored the new tokens.
      const again = await callAdapter(adapter, "getAccount", key.providerAccountId, key.provider)
      if (again !== null && again.refresh_token !== refreshToken && isFresh(again)) return tokenOf(again)
      return fail(new RefreshTokenError(failure.message, { cause: failure.cause }))
    }
    return fail(failure)
  }
  const fields = {
    ...key,
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    // `undefined` clears a stale expiry: a token the provider gave no lifetime is not refreshed again and again.
    expires_at: tokens.expires_at,
    refresh_token: tokens.refresh_token ?? refreshToken,
    ...(tokens.refresh_token_expires_at === undefined ? {} : { refresh_token_expires_at: tokens.refresh_token_expires_at }),
    ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
    ...(tokens.id_token === undefined ? {} : { id_token: tokens.id_token }),
  }
  const updated = await callAdapter(adapter, "updateAccount", fields)
  const account: AdapterAccount = updated ?? { ...stored, ...fields }
  await emit(config, "refreshToken", { account })
  return tokenOf(account)
}

/**
 * The no-adapter path: tokens kept in the sealed session cookie (`tokensInCookie`). A refresh
 * is stored by re-sealing the cookie through `setCookie`; without a sink, a due refresh is
 * refused rather than spending a refresh token whose successor could not be kept.
 */
async function cookieAccessToken(internal: InternalConfig, request: Request, provider: InternalOAuthProvider, setCookie: SetCookieSink | undefined): Promise<AccessToken | null> {
  const signedIn = await signedInUser(internal, request)
  const token = signedIn?.current?.token
  if (signedIn === undefined || token === undefined) return null
  const { context } = signedIn
  const forward = () => {
    if (setCookie !== undefined) for (const cookie of context.setCookies) setCookie(serializeCookie(cookie))
  }
  const stored = providerTokensOf(token)[provider.id]
  if (stored === undefined || typeof stored.access_token !== "string") {
    forward()
    return null
  }
  if (isFresh(stored)) {
    forward()
    return tokenOf(stored)
  }
  const key = { provider: provider.id, providerAccountId: typeof stored.providerAccountId === "string" ? stored.providerAccountId : "" }
  const fail = async (error: RefreshTokenError): Promise<never> => {
    await emit(internal, "refreshTokenError", { ...key, error })
    throw sanitizeError(error, context.sensitive)
  }
  if (setCookie === undefined) {
    return fail(new RefreshTokenError(`The access token of provider "${provider.id}" is due for a refresh, and its tokens are kept in the session cookie: call getAccessToken with its fourth argument (\`setCookie\`) where the response can set cookies (a route handler or server action, not a server component).`))
  }
  const refreshToken = stored.refresh_token
  if (typeof refreshToken !== "string" || refreshToken === "") {
    return fail(new RefreshTokenError(`The access token of provider "${provider.id}" has expired and the session has no refresh token for it.`))
  }
  context.sensitive.add(refreshToken)
  if (typeof stored.refresh_token_expires_at === "number" && stored.refresh_token_expires_at <= Math.floor(Date.now() / 1000)) {
    return fail(new RefreshTokenError(`The refresh token of provider "${provider.id}" has expired (\`refresh_token_expires_at\`): the user must sign in with it again.`))
  }
  const owner = [provider.id, key.providerAccountId, typeof token.sub === "string" ? token.sub : ""].join("\u0000")
  let refreshed: AccessTokenRefresh
  let spent: boolean
  try {
    ;({ tokens: refreshed, spent } = await sharedCookieRefresh(provider, refreshToken, owner, context.sensitive))
  } catch (error) {
    return fail(error instanceof RefreshTokenError ? new RefreshTokenError(error.message, { cause: error.cause }) : new RefreshTokenError(`The refresh at provider "${provider.id}" failed.`, { cause: error }))
  }
  const tokens: CookieTokens = {
    ...stored,
    access_token: refreshed.access_token,
    token_type: refreshed.token_type,
    refresh_token: refreshed.refresh_token,
    ...(refreshed.refresh_token_expires_at === undefined ? {} : { refresh_token_expires_at: refreshed.refresh_token_expires_at }),
    ...(refreshed.scope === undefined ? {} : { scope: refreshed.scope }),
  }
  if (refreshed.expires_at === undefined) delete tokens.expires_at
  else tokens.expires_at = refreshed.expires_at
  await resealSession(context, { ...token, providerTokens: { ...providerTokensOf(token), [provider.id]: tokens } })
  forward()
  // The event reports a refresh at the provider once, not each cookie that catches up with it.
  if (spent) {
    const { providerAccountId: _id, ...fields } = tokens
    await emit(internal, "refreshToken", { account: { ...fields, ...key, userId: typeof token.sub === "string" ? token.sub : "", type: provider.type } })
  }
  return tokenOf(tokens)
}

/** Drops the oldest entries whose time is up: finished tokens do not linger until the cache is full. */
function forgetFinished(now = Date.now()): void {
  for (const [key, { until }] of cookieRefreshes) {
    if (until === undefined || until > now) return
    cookieRefreshes.delete(key)
  }
}

/** The refresh remembered under `key` for `owner`: running, or finished and still remembered. */
function rememberedRefresh(key: string, owner: string): CookieRefresh | undefined {
  const known = cookieRefreshes.get(key)
  if (known?.until !== undefined && known.until <= Date.now()) {
    cookieRefreshes.delete(key)
    return undefined
  }
  return known?.owner === owner ? known : undefined
}

/**
 * New tokens for `refreshToken`, spending it at most once per process: a request of the same
 * session shares a running refresh of it, and one that arrives within
 * {@link SPENT_REFRESH_MEMORY_MS} after it finished (a stale cookie) gets its result, or that of
 * the refreshes that followed, instead of presenting the spent token again, which a provider with
 * reuse detection answers by revoking the whole grant. A remembered result whose access token has
 * expired is refreshed with the refresh token it brought, which nothing has spent.
 *
 * @returns the tokens, their refresh token filled in (the one kept when the provider sent none),
 * and whether this call spent a refresh token at the provider.
 * @throws {RefreshTokenError} when the refresh fails.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.4 Refresh Tokens
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 Refresh token rotation
 */
async function sharedCookieRefresh(
  provider: InternalOAuthProvider,
  refreshToken: string,
  owner: string,
  sensitive: Set<string>,
): Promise<{ tokens: AccessTokenRefresh & { refresh_token: string }; spent: boolean }> {
  let spending = refreshToken
  let key = await sha256Base64url(spending)
  let known = rememberedRefresh(key, owner)
  for (let hop = 0; known !== undefined && hop < MAX_HOPS; hop++) {
    const tokens = await known.tokens
    const next = tokens.refresh_token ?? spending
    const nextKey = next === spending ? key : await sha256Base64url(next)
    const later = next === spending ? undefined : rememberedRefresh(nextKey, owner)
    if (later === undefined && (tokens.expires_at === undefined || tokens.expires_at > Date.now() / 1000)) {
      for (const value of [tokens.access_token, next]) sensitive.add(value)
      return { tokens: { ...tokens, refresh_token: next }, spent: false }
    }
    spending = next
    key = nextKey
    known = later
  }
  if (known !== undefined) {
    const tokens = await known.tokens
    return { tokens: { ...tokens, refresh_token: tokens.refresh_token ?? spending }, spent: false }
  }
  sensitive.add(spending)
  forgetFinished()
  const refresh: CookieRefresh = { owner, tokens: import("./refresh.js").then(({ refreshTokens }) => refreshTokens(provider, spending, sensitive)) }
  cookieRefreshes.set(key, refresh)
  refresh.tokens.then(
    () => {
      refresh.until = Date.now() + SPENT_REFRESH_MEMORY_MS
    },
    () => {
      if (cookieRefreshes.get(key) === refresh) cookieRefreshes.delete(key)
    },
  )
  const tokens = await refresh.tokens
  return { tokens: { ...tokens, refresh_token: tokens.refresh_token ?? spending }, spent: true }
}
