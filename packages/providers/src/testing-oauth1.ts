/**
 * A simulated OAuth 1.0a provider for the provider kit: a real HTTP server on 127.0.0.1 that
 * answers the provider's own (https) request token, access token and profile URLs, which a
 * `fetch` wrapper redirects to it. Like X it checks every HMAC-SHA1 signature (with its own,
 * independent implementation), the callback, the verifier and single use of each token, and
 * answers credentials as a form (typed `text/html`, as X does).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849
 */
import { createHmac, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { APP, listenBehindFetch, originalUrl, place, readBody } from "./testing-loopback.js"


/** The four endpoints of an OAuth 1.0a provider configuration. */
export interface OAuth1Endpoints {
  requestTokenUrl: string
  authorization: string | { url?: string }
  accessTokenUrl: string
  profileUrl: string
}

/** An answer the test substitutes for one endpoint: a status, headers and body, or never answering. */
export type Override = { status?: number; headers?: Record<string, string>; body: string } | "hang"

/** A browser of the app: its cookies and a way to call the app's handler. */
export interface SimulatedBrowser {
  cookies: Map<string, string>
  call(path: string, init?: RequestInit): Promise<Response>
}

/** A running simulation of one OAuth 1.0a provider. */
export interface SimulatedOAuth1Provider {
  fetch: typeof fetch
  /** Every token and secret the simulator issued, for tests that check logs. */
  issued: Set<string>
  /** Replaces the answer of `"requestToken" | "accessToken" | "profile"` until reset with `undefined`. */
  override(endpoint: "requestToken" | "accessToken" | "profile", answer: Override | undefined): void
  /** A browser of the app at `http://localhost:3000`. */
  browser(app: (request: Request) => Promise<Response>): SimulatedBrowser
  /** Posts the sign-in form; returns where the app sent the browser. */
  start(browser: SimulatedBrowser, providerId: string): Promise<URL>
  /** The user approves (or, with `deny`, refuses) at the authorization URL: returns the callback URL the provider redirects to. */
  authorize(authorizationUrl: URL, options?: { deny?: boolean }): string
  /** A whole sign-in: returns the session it ends with. */
  signIn(app: (request: Request) => Promise<Response>, providerId: string): Promise<{ session: unknown; accessTokenRequests: number }>
  close(): Promise<void>
}


/** RFC 3986 percent-encoding, as RFC 5849 section 3.6 wants it. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** The `oauth_*` parameters of an `Authorization: OAuth ...` header. */
function parseHeader(header: string | undefined): Map<string, string> | undefined {
  if (header?.startsWith("OAuth ") !== true) return undefined
  const params = new Map<string, string>()
  for (const part of header.slice(6).split(",")) {
    const match = /^\s*([^=\s]+)="([^"]*)"\s*$/.exec(part)
    if (match === null) return undefined
    params.set(decodeURIComponent(match[1] ?? ""), decodeURIComponent(match[2] ?? ""))
  }
  return params
}

/** Whether the request's signature is right for these secrets. */
function verifySignature(method: string, url: URL, oauth: Map<string, string>, body: URLSearchParams, consumerSecret: string, tokenSecret: string): boolean {
  if (oauth.get("oauth_signature_method") !== "HMAC-SHA1") return false
  const params = [...url.searchParams, ...body, ...oauth].filter(([name]) => name !== "oauth_signature" && name !== "realm")
  const normalized = params
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&")
  const base = `${method}&${encode(`${url.protocol}//${url.host}${url.pathname}`)}&${encode(normalized)}`
  const expected = createHmac("sha1", `${encode(consumerSecret)}&${encode(tokenSecret)}`).update(base).digest("base64")
  return expected === oauth.get("oauth_signature")
}

const secret = (): string => randomBytes(18).toString("base64url")
const field = (value: unknown): string => (typeof value === "string" ? value : "")

/**
 * Starts a simulator for an OAuth 1.0a provider on 127.0.0.1, holding `fixture` as the profile.
 *
 * @throws when the server cannot listen.
 */
export async function simulateOAuth1Provider(
  endpoints: OAuth1Endpoints,
  client: { consumerKey: string; consumerSecret: string },
  fixture: Record<string, unknown>,
): Promise<SimulatedOAuth1Provider> {
  const authorizationUrl = typeof endpoints.authorization === "string" ? endpoints.authorization : (endpoints.authorization.url ?? "")
  const requestTokens = new Map<string, { secret: string; callback: string; verifier?: string }>()
  const accessTokens = new Map<string, string>()
  const overrides = new Map<string, Override>()
  const issued = new Set<string>()
  let accessTokenRequests = 0

  function form(values: Record<string, string>): [number, Record<string, string>, string] {
    return [200, { "content-type": "text/html; charset=utf-8" }, new URLSearchParams(values).toString()]
  }
  const refuse = (status: number, message: string): [number, Record<string, string>, string] => [
    status,
    { "content-type": "application/json" },
    JSON.stringify({ errors: [{ code: 32, message }] }),
  ]

  async function answer(request: IncomingMessage): Promise<[number, Record<string, string>, string] | "hang"> {
    const original = originalUrl(request)
    const at = place(original.href)
    const body = new URLSearchParams(await readBody(request))
    const endpoint = at === place(endpoints.requestTokenUrl) ? "requestToken" : at === place(endpoints.accessTokenUrl) ? "accessToken" : at === place(endpoints.profileUrl) ? "profile" : undefined
    if (endpoint === undefined) return refuse(404, `the simulated provider has no answer for ${at}`)
    const override = overrides.get(endpoint)
    if (override === "hang") return "hang"
    if (override !== undefined) return [override.status ?? 200, override.headers ?? {}, override.body]
    const oauth = parseHeader(request.headers.authorization)
    if (oauth === undefined || oauth.get("oauth_consumer_key") !== client.consumerKey) return refuse(401, "Could not authenticate you.")
    const method = request.method ?? "GET"

    if (endpoint === "requestToken") {
      const callback = oauth.get("oauth_callback")
      if (method !== "POST" || callback === undefined || oauth.has("oauth_token")) return refuse(400, "Bad request token request.")
      if (!verifySignature(method, original, oauth, body, client.consumerSecret, "")) return refuse(401, "Could not authenticate you.")
      const token = secret()
      const tokenSecret = secret()
      requestTokens.set(token, { secret: tokenSecret, callback })
      issued.add(token).add(tokenSecret)
      return form({ oauth_token: token, oauth_token_secret: tokenSecret, oauth_callback_confirmed: "true" })
    }
    if (endpoint === "accessToken") {
      accessTokenRequests++
      const token = oauth.get("oauth_token") ?? ""
      const pending = requestTokens.get(token)
      if (method !== "POST" || pending?.verifier === undefined) return refuse(401, "Invalid request token.")
      if (!verifySignature(method, original, oauth, body, client.consumerSecret, pending.secret)) return refuse(401, "Could not authenticate you.")
      if (oauth.get("oauth_verifier") !== pending.verifier) return refuse(401, "Error processing your OAuth request: Invalid oauth_verifier parameter")
      // A request token is exchanged once.
      requestTokens.delete(token)
      const accessToken = `${field(fixture.id_str) || "0"}-${secret()}`
      const accessSecret = secret()
      accessTokens.set(accessToken, accessSecret)
      issued.add(accessToken).add(accessSecret)
      return form({ oauth_token: accessToken, oauth_token_secret: accessSecret, user_id: field(fixture.id_str), screen_name: field(fixture.screen_name) })
    }
    const token = oauth.get("oauth_token") ?? ""
    const accessSecret = accessTokens.get(token)
    if (method !== "GET" || accessSecret === undefined) return refuse(401, "Invalid or expired token.")
    if (!verifySignature(method, original, oauth, body, client.consumerSecret, accessSecret)) return refuse(401, "Could not authenticate you.")
    return [200, { "content-type": "application/json" }, JSON.stringify(fixture)]
  }

  const hanging = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    answer(request).then(
      (result) => {
        if (result === "hang") {
          hanging.add(response)
          return
        }
        const [status, headers, body] = result
        response.writeHead(status, headers)
        response.end(body)
      },
      (error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain" })
        response.end(error instanceof Error ? error.message : "failed")
      },
    )
  })
  const simulatedFetch = await listenBehindFetch(server)

  const simulation: SimulatedOAuth1Provider = {
    fetch: simulatedFetch,
    issued,
    override(endpoint, value) {
      if (value === undefined) overrides.delete(endpoint)
      else overrides.set(endpoint, value)
    },
    browser(app) {
      const cookies = new Map<string, string>()
      return {
        cookies,
        async call(path, init = {}) {
          const headers = new Headers(init.headers)
          if (cookies.size > 0) headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "))
          const response = await app(new Request(new URL(path, APP), { ...init, headers }))
          for (const header of response.headers.getSetCookie()) {
            const [pair = ""] = header.split(";")
            const eq = pair.indexOf("=")
            const name = pair.slice(0, eq).trim()
            if (/;\s*max-age=0/i.test(header)) cookies.delete(name)
            else cookies.set(name, pair.slice(eq + 1).trim())
          }
          return response
        },
      }
    },
    async start(browser, providerId) {
      const { csrfToken } = (await (await browser.call("/api/auth/csrf")).json()) as { csrfToken: string }
      const started = await browser.call(`/api/auth/signin/${providerId}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
      })
      return new URL(started.headers.get("location") ?? "", APP)
    },
    authorize(authorization, options = {}) {
      if (place(authorization.href) !== place(authorizationUrl)) throw new Error(`sign-in went to ${authorization.href}, not the authorization endpoint`)
      const token = authorization.searchParams.get("oauth_token") ?? ""
      const pending = requestTokens.get(token)
      if (pending === undefined) throw new Error("the authorization URL names no request token the simulator issued")
      const callback = new URL(pending.callback)
      if (options.deny === true) {
        requestTokens.delete(token)
        callback.searchParams.set("denied", token)
      } else {
        pending.verifier = secret()
        issued.add(pending.verifier)
        callback.searchParams.set("oauth_token", token)
        callback.searchParams.set("oauth_verifier", pending.verifier)
      }
      return callback.href
    },
    async signIn(app, providerId) {
      const browser = simulation.browser(app)
      const authorization = await simulation.start(browser, providerId)
      const callback = await browser.call(simulation.authorize(authorization))
      const landed = callback.headers.get("location") ?? ""
      if (callback.status !== 302 || landed.includes("error=")) throw new Error(`the callback answered ${callback.status} ${landed}`)
      const session: unknown = await (await browser.call("/api/auth/session")).json()
      return { session, accessTokenRequests }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy()
        server.close(() => {
          resolve()
        })
        server.closeAllConnections()
      }),
  }
  return simulation
}
