/**
 * A relying party for the dev IdP's tests: a cookie-jar browser with the app's routes in process,
 * and the authorization code flow (PKCE, state, nonce) done with oauth4webapi.
 */
import * as oauth from "oauth4webapi"
import { expect } from "vitest"

import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import type { DevIdp } from "../src/index.js"

export const APP = "http://localhost:3000"
export const REDIRECT_URI = `${APP}/callback`
export const POST_LOGOUT_REDIRECT_URI = `${APP}/logged-out`
// eslint-disable-next-line @typescript-eslint/no-deprecated -- the dev IdP speaks plain http on loopback
export const insecure = { [oauth.allowInsecureRequests]: true }

export interface Callback {
  method: string
  url: URL
  params: URLSearchParams
  cookie: string | null
}

/**
 * A relying party in process: `/login` sets a Lax cookie and redirects to the IdP; `/callback`
 * records what arrives, `/logged-out` (the `post_logout_redirect_uri`) the URLs it was sent to.
 */
export function relyingParty(authorizationUrl: () => URL) {
  const callbacks: Callback[] = []
  const loggedOut: URL[] = []
  const handler = async (request: Request) => {
    const url = new URL(request.url)
    if (url.pathname === "/login") {
      const headers = new Headers({ location: authorizationUrl().href })
      headers.append("set-cookie", "rp_lax=1; Path=/; HttpOnly; SameSite=Lax")
      headers.append("set-cookie", "rp_none=1; Path=/; HttpOnly; Secure; SameSite=None")
      return new Response(null, { status: 302, headers })
    }
    if (url.pathname === "/callback") {
      const params = request.method === "POST" ? new URLSearchParams(await request.text()) : url.searchParams
      callbacks.push({ method: request.method, url, params, cookie: request.headers.get("cookie") })
      return new Response("<p>signed in</p>", { headers: { "content-type": "text/html" } })
    }
    if (url.pathname === "/logged-out") {
      loggedOut.push(url)
      return new Response("<p>signed out</p>", { headers: { "content-type": "text/html" } })
    }
    return new Response("not found", { status: 404 })
  }
  return { callbacks, loggedOut, handler }
}

export interface FlowOptions {
  clientId?: string
  scope?: string
  responseMode?: "query" | "form_post"
  login?: string
  password?: string
}

/** Starts an authorization request with PKCE, state and nonce, as oauth4webapi's docs describe. */
export async function beginFlow(idp: DevIdp, options: FlowOptions = {}) {
  const issuer = new URL(idp.issuer)
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure))
  const client: oauth.Client = { client_id: options.clientId ?? "app" }
  const codeVerifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const nonce = oauth.generateRandomNonce()
  const url = new URL(String(as.authorization_endpoint))
  url.searchParams.set("client_id", client.client_id)
  url.searchParams.set("redirect_uri", REDIRECT_URI)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("scope", options.scope ?? "openid email profile")
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier))
  url.searchParams.set("code_challenge_method", "S256")
  url.searchParams.set("state", state)
  url.searchParams.set("nonce", nonce)
  if (options.responseMode !== undefined) url.searchParams.set("response_mode", options.responseMode)
  const rp = relyingParty(() => url)
  const browser = new TestBrowser({ routes: { [APP]: rp.handler } })
  return { as, client, codeVerifier, state, nonce, rp, browser }
}

export type Flow = Awaited<ReturnType<typeof beginFlow>>

/** Clicks through login (and consent when asked) until the callback page. */
export async function clickThrough(flow: Flow, options: FlowOptions = {}): Promise<Page> {
  let page = await flow.browser.navigate(`${APP}/login`)
  expect(page.body).toContain("Sign in")
  page = await flow.browser.submitForm(page, {
    values: { login: options.login ?? "alice@example.com", password: options.password ?? "alice-password" },
  })
  if (page.body.includes("Allow access")) page = await flow.browser.submitForm(page, { button: "Allow" })
  if (page.body.includes("Submitting Callback")) page = await flow.browser.submitForm(page)
  return page
}

export async function exchangeCode(flow: Flow, callback: Callback, secret = "app-secret", requestOptions: oauth.TokenEndpointRequestOptions = {}) {
  const params = oauth.validateAuthResponse(flow.as, flow.client, callback.params, flow.state)
  const response = await oauth.authorizationCodeGrantRequest(
    flow.as,
    flow.client,
    oauth.ClientSecretBasic(secret),
    params,
    REDIRECT_URI,
    flow.codeVerifier,
    { ...insecure, ...requestOptions },
  )
  return oauth.processAuthorizationCodeResponse(flow.as, flow.client, response, {
    expectedNonce: flow.nonce,
    requireIdToken: true,
  })
}

export function lastCallback(flow: Flow): Callback {
  const callback = flow.rp.callbacks.at(-1)
  if (callback === undefined) throw new Error("the callback was never reached")
  return callback
}
