/**
 * A simulated identity provider for the provider kit: a real HTTP server on 127.0.0.1 that
 * answers a provider's own (https) endpoint URLs, which a `fetch` wrapper redirects to it. It
 * checks what a real provider checks (the code, the PKCE verifier, the client credentials) and
 * answers with the provider's fixture.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { APP, listenBehindFetch, originalUrl, place, readBody } from "./testing-loopback.js"
import type { OAuthConfig, TokenSet } from "@portcullis/core/providers"

/** A running simulation of one provider. */
export interface SimulatedProvider {
  /** A `fetch` that sends every non-loopback request to the simulator, keeping its original URL. */
  fetch: typeof fetch
  /** Runs a whole sign-in through the app's handler and returns the session it ends with, and where the browser was sent to sign in. */
  signIn(app: (request: Request) => Promise<Response>): Promise<{ session: unknown; tokenRequests: number; authorization: URL }>
  close(): Promise<void>
}


function endpointUrl(endpoint: unknown): string | undefined {
  if (typeof endpoint === "string") return endpoint
  if (typeof endpoint === "object" && endpoint !== null) {
    const url = (endpoint as { url?: unknown }).url
    return typeof url === "string" ? url : undefined
  }
  return undefined
}


function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url")
}

async function signingKey(): Promise<{ sign(claims: Record<string, unknown>): Promise<string>; jwk: JsonWebKey & { kid: string } }> {
  const pair = await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )
  const kid = randomUUID()
  const jwk = { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid, alg: "RS256", use: "sig" }
  return {
    jwk,
    async sign(claims) {
      const input = `${base64url(JSON.stringify({ alg: "RS256", kid }))}.${base64url(JSON.stringify(claims))}`
      const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", pair.privateKey, new TextEncoder().encode(input))
      return `${input}.${base64url(Buffer.from(signature))}`
    },
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

/** A cookie jar for one origin: enough for the app's own cookies. */
class Jar {
  readonly cookies = new Map<string, string>()

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      if (/;\s*max-age=0/i.test(header)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(eq + 1).trim())
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

/**
 * Starts a simulator for `provider` on 127.0.0.1.
 *
 * @throws when the server cannot listen.
 */
export async function simulateProvider(
  provider: OAuthConfig,
  data: { fixture: Record<string, unknown>; tokens?: TokenSet; responses?: Record<string, unknown> },
): Promise<SimulatedProvider> {
  const key = await signingKey()
  const explicitIssuer = provider.issuer
  const wellKnown =
    provider.wellKnown ??
    (provider.type === "oidc" && explicitIssuer !== undefined ? `${explicitIssuer.replace(/\/+$/, "")}/.well-known/openid-configuration` : undefined)
  const home = new URL(wellKnown ?? explicitIssuer ?? endpointUrl(provider.authorization) ?? "https://provider.invalid/").origin
  const issuer = explicitIssuer ?? home
  const endpoints = {
    authorization: endpointUrl(provider.authorization) ?? `${home}/.simulated/authorize`,
    token: endpointUrl(provider.token) ?? `${home}/.simulated/token`,
    userinfo: endpointUrl(provider.userinfo) ?? `${home}/.simulated/userinfo`,
    jwks: `${home}/.simulated/jwks`,
  }
  const metadata = {
    issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    userinfo_endpoint: endpoints.userinfo,
    jwks_uri: endpoints.jwks,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    code_challenge_methods_supported: ["S256"],
  }
  const extra = new Map(Object.entries(data.responses ?? {}).map(([url, body]) => [place(url), body]))
  // What the authorization request sent, for the token endpoint to check.
  let issued: { code: string; challenge: string | null; nonce: string | null; redirectUri: string } | undefined
  let tokenRequests = 0

  async function tokenResponse(body: URLSearchParams): Promise<[number, unknown]> {
    tokenRequests++
    // A JWT-bearer grant (RFC 7523) carries the code as its assertion.
    const code = body.get("code") ?? body.get("assertion")
    if (issued === undefined || code !== issued.code) return [400, { error: "invalid_grant", error_description: "unknown code" }]
    const verifier = body.get("code_verifier")
    if (issued.challenge !== null && (verifier === null || base64url(createHash("sha256").update(verifier).digest()) !== issued.challenge)) {
      return [400, { error: "invalid_grant", error_description: "PKCE verification failed" }]
    }
    const now = Math.floor(Date.now() / 1000)
    const tokens: Record<string, unknown> = {
      access_token: `simulated-access-${randomUUID()}`,
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: `simulated-refresh-${randomUUID()}`,
      scope: "openid profile email",
      ...data.tokens,
    }
    if (provider.type === "oidc") {
      const subject = data.fixture.sub ?? data.fixture.id
      const sub = typeof subject === "string" || typeof subject === "number" ? String(subject) : "simulated-subject"
      // A fixture sampled from a real ID token carries that sign-in's protocol claims (its `azp` names the
      // real client); this one gets its own.
      const { nonce: _nonce, at_hash: _atHash, c_hash: _cHash, auth_time: _authTime, azp: _azp, ...claims } = data.fixture
      tokens.id_token = await key.sign({
        ...claims,
        iss: issuer,
        aud: provider.clientId,
        sub,
        iat: now,
        exp: now + 600,
        ...(issued.nonce === null ? {} : { nonce: issued.nonce }),
      })
    }
    return [200, tokens]
  }

  async function answer(request: IncomingMessage): Promise<[number, unknown]> {
    const original = originalUrl(request)
    const at = place(original.href)
    const form = new URLSearchParams(await readBody(request))
    for (const [name, value] of original.searchParams) if (!form.has(name)) form.set(name, value)
    if (extra.has(at)) return [200, extra.get(at)]
    if (wellKnown !== undefined && at === place(wellKnown)) return [200, metadata]
    if (at === place(endpoints.jwks)) return [200, { keys: [key.jwk] }]
    if (at === place(endpoints.token)) return tokenResponse(form)
    if (at === place(endpoints.userinfo)) {
      const authorized = request.headers.authorization !== undefined || form.has("access_token") || form.has("oauth_token")
      return authorized ? [200, data.fixture] : [401, { error: "invalid_token" }]
    }
    return [404, { error: "not_found", error_description: `the simulated provider has no answer for ${at}` }]
  }

  const server = createServer((request, response) => {
    answer(request).then(
      ([status, body]) => {
        send(response, status, body)
      },
      (error: unknown) => {
        send(response, 500, { error: "server_error", error_description: error instanceof Error ? error.message : "failed" })
      },
    )
  })
  const simulatedFetch = await listenBehindFetch(server)

  return {
    fetch: simulatedFetch,
    async signIn(app) {
      const jar = new Jar()
      const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
        const headers = new Headers(init.headers)
        if (jar.cookies.size > 0) headers.set("cookie", jar.header())
        const response = await app(new Request(new URL(path, APP), { ...init, headers }))
        jar.store(response)
        return response
      }
      const { csrfToken } = (await (await call("/api/auth/csrf")).json()) as { csrfToken: string }
      const started = await call(`/api/auth/signin/${provider.id}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
      })
      const authorization = new URL(started.headers.get("location") ?? "")
      if (place(authorization.href) !== place(endpoints.authorization)) {
        throw new Error(`sign-in went to ${authorization.href}, not the authorization endpoint`)
      }
      const params = authorization.searchParams
      const redirectUri = params.get("redirect_uri") ?? ""
      issued = { code: randomBytes(16).toString("hex"), challenge: params.get("code_challenge"), nonce: params.get("nonce"), redirectUri }
      const answer = new URLSearchParams({ code: issued.code })
      const state = params.get("state")
      if (state !== null) answer.set("state", state)
      const callback =
        params.get("response_mode") === "form_post"
          ? await call(redirectUri, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: answer })
          : await call(`${redirectUri}?${answer.toString()}`)
      const landed = callback.headers.get("location") ?? ""
      if (callback.status !== 302 || landed.includes("error=")) throw new Error(`the callback answered ${callback.status} ${landed}`)
      const session: unknown = await (await call("/api/auth/session")).json()
      return { session, tokenRequests, authorization }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
        server.closeAllConnections()
      }),
  }
}
