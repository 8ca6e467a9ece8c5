/**
 * The provider's authorization server metadata (discovered once and cached), its client
 * metadata, and the options every outbound request carries: a timeout and, for loopback test
 * providers only, plain http.
 */
import * as o from "oauth4webapi"
import type { ProviderFetch } from "../providers/index.js"
import type { InternalOAuthProvider } from "./provider.js"

/** Discovery documents stay cached this long; a failed discovery is not cached at all. */
const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000

const discovered = new Map<string, { at: number; server: Promise<o.AuthorizationServer> }>()
/** One metadata object per provider: oauth4webapi keys its JWKS cache by this object's identity. */
const servers = new WeakMap<InternalOAuthProvider, { at: number; server: Promise<o.AuthorizationServer> }>()

/* eslint-disable @typescript-eslint/no-deprecated -- plain http is deprecated in oauth4webapi on purpose; it is only ever enabled for loopback development providers (see allowInsecureLoopbackRequests). */

/** The options of one outbound request to the provider. */
export function httpOptions(provider: InternalOAuthProvider): { signal: AbortSignal; [o.allowInsecureRequests]?: boolean } {
  const options: { signal: AbortSignal; [o.allowInsecureRequests]?: boolean } = { signal: AbortSignal.timeout(provider.timeout) }
  if (provider.allowInsecureRequests) options[o.allowInsecureRequests] = true
  return options
}
/* eslint-enable @typescript-eslint/no-deprecated */

/** A `fetch` for the provider's own hooks, aborted after the provider's timeout. */
export function providerFetch(provider: InternalOAuthProvider): ProviderFetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(provider.timeout)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    return fetch(input, { ...init, signal })
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
    const response = await o.discoveryRequest(issuer, { ...httpOptions(provider), algorithm })
    return o.processDiscoveryResponse(issuer, response)
  }
  const response = await fetch(url, { ...httpOptions(provider), headers: { accept: "application/json" }, redirect: "manual" })
  const document: unknown = await response.clone().json().catch(() => undefined)
  const claimed = typeof document === "object" && document !== null ? (document as { issuer?: unknown }).issuer : undefined
  const expected = provider.issuer ?? (typeof claimed === "string" ? claimed : undefined)
  if (expected === undefined) throw new TypeError(`the discovery document at ${wellKnown} names no issuer`)
  return o.processDiscoveryResponse(new URL(expected), response)
}

function cachedDiscovery(provider: InternalOAuthProvider, wellKnown: string): Promise<o.AuthorizationServer> {
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

/** The client metadata oauth4webapi checks responses against. */
export function clientOf(provider: InternalOAuthProvider): o.Client {
  return { ...provider.client, client_id: provider.clientId }
}

/** How the client authenticates at the token endpoint. */
export function clientAuthOf(provider: InternalOAuthProvider): o.ClientAuth {
  switch (provider.authMethod) {
    case "client_secret_post":
      return o.ClientSecretPost(provider.clientSecret ?? "")
    case "none":
      return o.None()
    default:
      return o.ClientSecretBasic(provider.clientSecret ?? "")
  }
}
