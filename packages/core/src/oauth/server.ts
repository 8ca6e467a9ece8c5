/**
 * The provider's authorization server metadata (discovered once and cached), its client
 * metadata and authentication, and the options every outbound request carries: a timeout, the
 * app's own `fetch` for the provider when it set one and, for loopback test providers only, plain http.
 */
import * as o from "oauth4webapi"
import { fetchWithin, requestTimeout, withRequestTimeout, type RequestTimeout } from "../outbound/deadline.js"
import type { ProviderFetch } from "../providers/types.js"
import { claimForcedRefetch, keySetOf } from "./key-set.js"
import type { InternalOAuthProvider } from "./provider.js"

/** Discovery documents stay cached this long; a failed discovery is not cached at all. */
const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000

const discovered = new Map<string, { at: number; server: Promise<o.AuthorizationServer> }>()
/** One metadata object per provider: oauth4webapi keys its JWKS cache by this object's identity. */
const servers = new WeakMap<InternalOAuthProvider, { at: number; server: Promise<o.AuthorizationServer> }>()

/* eslint-disable @typescript-eslint/no-deprecated -- plain http is deprecated in oauth4webapi on purpose; it is only ever enabled for loopback development providers (see allowInsecureLoopbackRequests). */

type HttpOptions = { signal: AbortSignal; [o.allowInsecureRequests]?: boolean; [o.customFetch]?: (url: string, init: o.CustomFetchOptions<string, unknown>) => Promise<Response> }

/** The options of one outbound request to the provider, aborted by `signal` (see {@link withRequestTimeout}). */
export function httpOptions(provider: InternalOAuthProvider, signal: AbortSignal): HttpOptions {
  const options: HttpOptions = { signal }
  if (provider.allowInsecureRequests) options[o.allowInsecureRequests] = true
  const { customFetch } = provider
  if (customFetch !== undefined) options[o.customFetch] = (url, init) => fetchWithin(customFetch, url, { ...(init as RequestInit), signal })
  return options
}
/* eslint-enable @typescript-eslint/no-deprecated */

/**
 * Runs one of the provider's own hooks (`token.request`, `userinfo.request`) with a `fetch` whose
 * every request is aborted after the provider's timeout or the callback's `deadline`; the timers
 * end with the hook, which reads the answers itself.
 */
export async function withProviderFetch<T>(provider: InternalOAuthProvider, deadline: AbortSignal, hook: (fetch: ProviderFetch) => Promise<T>): Promise<T> {
  const timeouts: RequestTimeout[] = []
  try {
    return await hook((input, init) => {
      const timeout = requestTimeout(provider.timeout, deadline, init?.signal ?? undefined)
      timeouts.push(timeout)
      return fetchWithin(provider.customFetch, input, { ...init, signal: timeout.signal })
    })
  } finally {
    for (const timeout of timeouts) timeout.clear()
  }
}

async function discover(provider: InternalOAuthProvider, wellKnown: string): Promise<o.AuthorizationServer> {
  const url = new URL(wellKnown)
  const standard =
    provider.issuer !== undefined &&
    (wellKnown === `${provider.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration` ||
      wellKnown === `${provider.issuer.replace(/\/+$/, "")}/.well-known/oauth-authorization-server`)
  if (standard && provider.issuer !== undefined) {
    const issuer = new URL(provider.issuer)
    const algorithm = wellKnown.endsWith("/openid-configuration") ? "oidc" : "oauth2"
    return withRequestTimeout(provider.timeout, undefined, async (signal) => {
      const response = await o.discoveryRequest(issuer, { ...httpOptions(provider, signal), algorithm })
      return o.processDiscoveryResponse(issuer, response)
    })
  }
  return withRequestTimeout(provider.timeout, undefined, async (signal) => {
    const response = await fetchWithin(provider.customFetch, url.href, { signal, headers: { accept: "application/json" }, redirect: "manual" })
    const document: unknown = await response.clone().json().catch(() => undefined)
    const claimed = typeof document === "object" && document !== null ? (document as { issuer?: unknown }).issuer : undefined
    const expected = provider.issuer ?? (typeof claimed === "string" ? claimed : undefined)
    if (expected === undefined) throw new TypeError(`the discovery document at ${wellKnown} names no issuer`)
    return o.processDiscoveryResponse(new URL(expected), response)
  })
}

function cachedDiscovery(provider: InternalOAuthProvider, wellKnown: string): Promise<o.AuthorizationServer> {
  // What the app's own fetch answered is this provider's alone (another may share the issuer).
  if (provider.customFetch !== undefined) return discover(provider, wellKnown)
  const key = `${provider.issuer ?? ""} ${wellKnown}`
  const entry = discovered.get(key)
  if (entry !== undefined && Date.now() - entry.at < DISCOVERY_TTL_MS) return entry.server
  const server = discover(provider, wellKnown)
  discovered.set(key, { at: Date.now(), server })
  server.catch(() => {
    if (discovered.get(key)?.server === server) discovered.delete(key)
  })
  return server
}

async function build(provider: InternalOAuthProvider): Promise<o.AuthorizationServer> {
  const base: o.AuthorizationServer =
    provider.wellKnown !== undefined
      ? await cachedDiscovery(provider, provider.wellKnown)
      : { issuer: provider.issuer ?? `urn:auth:oauth:${provider.id}` }
  return {
    ...base,
    authorization_endpoint: provider.authorization.url ?? base.authorization_endpoint,
    token_endpoint: provider.token.url ?? base.token_endpoint,
    userinfo_endpoint: provider.userinfo.url ?? base.userinfo_endpoint,
    jwks_uri: provider.jwksEndpoint ?? base.jwks_uri,
  }
}

/**
 * The provider's authorization server metadata: its explicit endpoints over its discovery
 * document, fetched once per issuer and reused (with its JWKS) across requests.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414 OAuth 2.0 Authorization Server Metadata
 */
export function authorizationServer(provider: InternalOAuthProvider): Promise<o.AuthorizationServer> {
  const entry = servers.get(provider)
  if (entry !== undefined && Date.now() - entry.at < DISCOVERY_TTL_MS) return entry.server
  const server = build(provider)
  servers.set(provider, { at: Date.now(), server })
  server.catch(() => {
    if (servers.get(provider)?.server === server) servers.delete(provider)
  })
  return server
}

export { KEY_REFETCH_INTERVAL_MS } from "./key-set.js"

/**
 * A copy of the provider's metadata in place of `server`, for every request from now on:
 * oauth4webapi keeps the keys it downloaded per metadata object, so the copy starts with none
 * of its own and reads the provider's one key set, which a forced refetch has just emptied.
 */
export function freshServer(provider: InternalOAuthProvider, server: o.AuthorizationServer): o.AuthorizationServer {
  const current = { ...server }
  servers.set(provider, { at: servers.get(provider)?.at ?? Date.now(), server: Promise.resolve(current) })
  return current
}

function isUnknownKey(error: unknown): boolean {
  return error instanceof o.OperationProcessingError && error.code === o.KEY_SELECTION
}

/**
 * Verifies the signature of the ID token in a processed token response against the issuer's
 * published keys. A token signed with a key we have not seen (the provider rotated its keys)
 * makes us download the keys again once, unless an unknown key already did so moments ago.
 *
 * @throws what oauth4webapi throws for a bad signature or an unusable key set.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys
 */
export async function verifyIdTokenSignature(
  provider: InternalOAuthProvider,
  server: o.AuthorizationServer,
  response: Response,
  deadline: AbortSignal | undefined,
): Promise<void> {
  const state = keySetOf(provider)
  const verify = (as: o.AuthorizationServer) =>
    withRequestTimeout(provider.timeout, deadline, (signal) => o.validateApplicationLevelSignature(as, response, { ...httpOptions(provider, signal), [o.jwksCache]: state.cache as o.JWKSCacheInput }))
  try {
    await verify(server)
  } catch (error) {
    if (!isUnknownKey(error)) throw error
    let current = await authorizationServer(provider)
    if (current === server) {
      if (!claimForcedRefetch(state)) throw error
      current = freshServer(provider, server)
      const refetch = verify(current)
      state.refetching = refetch.catch(() => undefined)
      try {
        await refetch
      } finally {
        state.refetching = undefined
      }
      return
    }
    // Another request is downloading the keys for the copy: wait for it rather than download them again.
    await state.refetching
    await verify(current)
  }
}

/** The client metadata oauth4webapi checks responses against. */
export function clientOf(provider: InternalOAuthProvider): o.Client {
  return { ...provider.client, client_id: provider.clientId }
}

/**
 * The audience of a `private_key_jwt` assertion: the issuer and, as Auth.js sends it (some
 * providers expect it), the token endpoint, but only on the issuer's own origin: metadata that
 * points the token endpoint at another server must not get an assertion that server accepts.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3 (`aud`)
 */
function assertionAudience(as: o.AuthorizationServer): string | string[] {
  const endpoint = as.token_endpoint
  if (endpoint === undefined) return as.issuer
  try {
    return new URL(endpoint).origin === new URL(as.issuer).origin ? [as.issuer, endpoint] : as.issuer
  } catch {
    return as.issuer
  }
}

/**
 * How the client authenticates at the token endpoint (`client.token_endpoint_auth_method`).
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
 */
export function clientAuthOf(provider: InternalOAuthProvider): o.ClientAuth {
  const { clientPrivateKey } = provider
  switch (provider.authMethod) {
    case "client_secret_post":
      return o.ClientSecretPost(provider.clientSecret ?? "")
    case "client_secret_jwt":
      return o.ClientSecretJwt(provider.clientSecret ?? "")
    case "private_key_jwt":
      if (clientPrivateKey === undefined) throw new TypeError(`provider "${provider.id}" has no \`token.clientPrivateKey\``)
      return (as, client, body, headers) =>
        o.PrivateKeyJwt(clientPrivateKey, {
          [o.modifyAssertion]: (_header, payload) => {
            payload.aud = assertionAudience(as)
          },
        })(as, client, body, headers)
    case "none":
      return o.None()
    default:
      return o.ClientSecretBasic(provider.clientSecret ?? "")
  }
}
