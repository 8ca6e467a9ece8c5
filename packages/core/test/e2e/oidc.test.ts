import { generateKeyPairSync } from "node:crypto"
import type { DevIdp } from "@portcullis/dev-idp"
import { decodeJwt } from "jose"
import { describe, expect, it } from "vitest"
import GitHub from "@portcullis/providers/github/index.js"
import Keycloak from "@portcullis/providers/keycloak/index.js"
import Okta from "@portcullis/providers/okta/index.js"
import { customFetch } from "../../src/index.js"
import { APP, CLIENT, Harness, PROVIDER_IDS, e2eConfig, errorOf, idpProvider, oauthProvider, startIdp, useIdp } from "./harness.js"

/** The key pair of the `private_key_jwt` client: its public half registered at the OP, its private half ours. */
const CLIENT_KEY = generateKeyPairSync("ec", { namedCurve: "P-256" })
const CLIENT_KID = "core-e2e-key-1"
/** Clients authenticating with a signed assertion (OIDC Core §9) instead of the secret itself. */
const JWT_CLIENTS = { secretJwt: { id: "core-e2e-secret-jwt", secret: "core-e2e-client-secret-for-hs256-assertions" }, privateKeyJwt: { id: "core-e2e-private-key-jwt" } }
const REDIRECT_URIS = PROVIDER_IDS.map((id) => `${APP}/api/auth/callback/${id}`)

const idp = useIdp({
  clients: [
    { client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: REDIRECT_URIS, grant_types: ["authorization_code", "refresh_token"] },
    { client_id: JWT_CLIENTS.secretJwt.id, client_secret: JWT_CLIENTS.secretJwt.secret, token_endpoint_auth_method: "client_secret_jwt", redirect_uris: REDIRECT_URIS },
    {
      client_id: JWT_CLIENTS.privateKeyJwt.id,
      token_endpoint_auth_method: "private_key_jwt",
      token_endpoint_auth_signing_alg: "ES256",
      jwks: { keys: [{ ...CLIENT_KEY.publicKey.export({ format: "jwk" }), kid: CLIENT_KID, alg: "ES256", use: "sig" }] },
      redirect_uris: REDIRECT_URIS,
    },
  ],
})

/** The `private_key_jwt` client's private key, as an app holds it (a `CryptoKey`). */
async function clientPrivateKey(): Promise<CryptoKey> {
  return crypto.subtle.importKey("jwk", CLIENT_KEY.privateKey.export({ format: "jwk" }), { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"])
}

/** The path a fetch is asked for. */
function pathOf(input: string | URL | Request): string {
  return new URL(input instanceof Request ? input.url : input).pathname
}

/** A fetch that records each path it is asked for, then asks the real one. */
function countingFetch(): { fetch: typeof fetch; paths: string[] } {
  const paths: string[] = []
  return {
    paths,
    fetch: (input, init) => {
      paths.push(pathOf(input))
      return fetch(input, init)
    },
  }
}

function harness(overrides: Parameters<typeof idpProvider>[1] = {}, extra: Parameters<typeof e2eConfig>[1] = {}) {
  const config = e2eConfig([idpProvider(idp(), overrides), oauthProvider(idp()), idpProvider(idp(), { id: "idp-post", authorization: { params: { response_mode: "form_post" } } }), idpProvider(idp(), { id: "idp-userinfo", idToken: false })], extra)
  return { config, h: new Harness(config) }
}

/** Replaces the ID token of the next token response with claims the test chooses. */
function craftIdToken(change: (claims: Record<string, unknown>) => Record<string, unknown>, options?: Parameters<DevIdp["signJwt"]>[1]) {
  idp().onTokenResponse(async ({ body }) => ({
    body: { ...body, id_token: await idp().signJwt(change(decodeJwt(String(body.id_token))), options) },
  }))
}

describe("sign-in with a real OpenID Provider", () => {
  it("completes the code flow with PKCE, state and nonce, then signs out", async () => {
    const { h, config } = harness()
    const landed = await h.signIn("idp", "/protected")
    expect(landed.url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { id: "alice", name: "Alice Example", email: "alice@example.com" } })
    expect(h.browser.cookies(APP).map((c) => c.name).sort()).toEqual(["authjs.csrf-token", "authjs.session-token"])

    const signout = await h.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await h.csrfToken(), callbackUrl: "/bye" }),
      initiator: `${APP}/api/auth/signout`,
    })
    expect(signout.url).toBe(`${APP}/bye`)
    expect(await h.session()).toBeNull()
    expect(config.errors).toEqual([])
  })

  it("completes a response_mode=form_post flow, whose cross-site POST carries no Lax cookies", async () => {
    const { h } = harness()
    const landed = await h.signIn("idp-post")
    expect(landed.url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("completes a plain OAuth 2.0 flow with the profile from userinfo", async () => {
    const { h } = harness()
    await h.signIn("idp-oauth")
    expect(await h.session()).toMatchObject({ user: { id: "alice", email: "alice@example.com" } })
  })

  it("reads the profile from userinfo when the provider says so, and fetches discovery once", async () => {
    const { h } = harness()
    idp().clearRequests()
    await h.signIn("idp-userinfo")
    await h.signIn("idp-userinfo")
    expect(await h.session()).toMatchObject({ user: { name: "Alice Example" } })
    expect(idp().requests.filter((r) => r.path === "/me")).toHaveLength(2)
    expect(idp().requests.filter((r) => r.path === "/.well-known/openid-configuration").length).toBeLessThanOrEqual(1)
  })

  it("shows AccessDenied on the sign-in page when the user denies consent", async () => {
    const { h } = harness()
    const login = await h.browser.submitForm(await h.startSignIn("idp"), { values: { login: "alice@example.com", password: "alice-password" } })
    const denied = await h.browser.submitForm(login, { formIndex: 1 })
    expect(new URL(denied.url).pathname).toBe("/api/auth/signin")
    expect(errorOf(denied)).toBe("AccessDenied")
    expect(await h.session()).toBeNull()
  })
})

describe("callback attacks", () => {
  it("refuses a callback whose state cookie is missing", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    h.browser.deleteCookie(APP, "authjs.state")
    expect(errorOf(await h.callback(callback))).toBe("InvalidCheck")
    expect(await h.session()).toBeNull()
  })

  it("keeps the page the user meant to reach when the callback fails", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    callback.searchParams.set("state", "forged")
    const landed = await h.callback(callback)
    expect(errorOf(landed)).toBe("InvalidCheck")
    expect(new URL(landed.url).searchParams.get("callbackUrl")).toBe(`${APP}/protected`)
  })

  it("refuses a callback whose state differs from the cookie (login CSRF)", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    callback.searchParams.set("state", "forged")
    expect(errorOf(await h.callback(callback))).toBe("InvalidCheck")
    expect(await h.session()).toBeNull()
  })

  it("refuses a callback without the PKCE verifier cookie", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    h.browser.deleteCookie(APP, "authjs.pkce.code_verifier")
    expect(errorOf(await h.callback(callback))).toBe("InvalidCheck")
  })

  it("refuses a code redeemed with another sign-in's PKCE verifier (code injection)", async () => {
    const { h } = harness()
    const victim = await h.holdCallback()
    const victimCookies = h.browser.cookies(APP)
    await h.holdCallback()
    const attackerVerifier = h.browser.cookies(APP).find((c) => c.name === "authjs.pkce.code_verifier")
    for (const cookie of victimCookies) h.browser.setCookie(APP, `${cookie.name}=${cookie.value}; Path=/`)
    h.browser.setCookie(APP, `authjs.pkce.code_verifier=${attackerVerifier?.value ?? ""}; Path=/`)
    expect(errorOf(await h.callback(victim))).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })

  it("refuses an ID token whose nonce belongs to another sign-in (replay)", async () => {
    const { h } = harness()
    craftIdToken((claims) => ({ ...claims, nonce: "replayed-nonce" }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })

  it("refuses a replayed authorization code", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    const cookies = h.browser.cookies(APP)
    expect((await h.callback(callback)).url).toBe(`${APP}/protected`)
    h.browser.deleteCookie(APP, "authjs.session-token")
    for (const cookie of cookies) h.browser.setCookie(APP, `${cookie.name}=${cookie.value}; Path=/`)
    expect(errorOf(await h.callback(callback))).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })

  it("refuses an ID token signed with a key the issuer never published", async () => {
    const { h, config } = harness()
    craftIdToken((claims) => claims, { key: "foreign" })
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(config.errors.join("\n")).toMatch(/signature/i)
  })

  it("refuses an unsigned ID token (alg none)", async () => {
    const { h } = harness()
    craftIdToken((claims) => claims, { alg: "none" })
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses an ID token from another issuer", async () => {
    const { h } = harness()
    craftIdToken((claims) => ({ ...claims, iss: "https://evil.example" }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses an ID token issued to another client", async () => {
    const { h } = harness()
    craftIdToken((claims) => ({ ...claims, aud: "someone-else" }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses an ID token for several audiences without our azp", async () => {
    const { h } = harness()
    craftIdToken((claims) => ({ ...claims, aud: [String(claims.aud), "other"], azp: "other" }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses an expired ID token", async () => {
    const { h } = harness()
    const now = Math.floor(Date.now() / 1000)
    craftIdToken((claims) => ({ ...claims, iat: now - 7200, exp: now - 3600 }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses an ID token issued in the future, beyond the clock skew", async () => {
    const { h } = harness()
    const now = Math.floor(Date.now() / 1000)
    craftIdToken((claims) => ({ ...claims, iat: now + 3600, exp: now + 7200 }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses a mix-up: the callback's RFC 9207 iss names another issuer", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    expect(callback.searchParams.get("iss")).toBe(idp().issuer)
    callback.searchParams.set("iss", "https://evil.example")
    expect(errorOf(await h.callback(callback))).toBe("OAuthCallbackError")
  })

  it("refuses duplicate callback parameters", async () => {
    const { h } = harness()
    const callback = await h.holdCallback()
    callback.searchParams.append("code", "second-code")
    expect(errorOf(await h.callback(callback))).toBe("OAuthCallbackError")
  })

  it("refuses a userinfo answer about another subject", async () => {
    const { h } = harness()
    idp().onUserinfoResponse(({ body }) => ({ body: { ...(body as object), sub: "mallory" } }))
    expect(errorOf(await h.signIn("idp-userinfo"))).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })

  it("refuses a token response that is an error page, not JSON", async () => {
    const { h } = harness()
    idp().onTokenResponse(() => ({ status: 502, body: "<html>Bad gateway</html>", headers: { "content-type": "text/html" } }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses a token that is not a bearer token", async () => {
    const { h } = harness()
    idp().onTokenResponse(({ body }) => ({ body: { ...body, token_type: "mac" } }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
  })

  it("refuses a userinfo endpoint that fails with a server error", async () => {
    const { h, config } = harness()
    idp().onUserinfoResponse(() => ({ status: 500, body: "<html>oops</html>", headers: { "content-type": "text/html" } }))
    expect(errorOf(await h.signIn("idp-userinfo"))).toBe("OAuthCallbackError")
    expect(config.errors.join("\n")).toMatch(/HTTP 500/)
  })

  it("does not hammer the JWKS endpoint for tokens signed with an unknown key", async () => {
    const { h } = harness()
    await h.signIn()
    idp().clearRequests()
    craftIdToken((claims) => claims, { key: "foreign", kid: "unknown-key" })
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(idp().requests.filter((r) => r.path === "/jwks").length).toBeLessThanOrEqual(1)
  })

  it("refuses an OAuth error answered by the token endpoint", async () => {
    const { h, config } = harness()
    idp().onTokenResponse(() => ({ status: 400, body: { error: "invalid_grant", error_description: "nope" } }))
    expect(errorOf(await h.signIn("idp-oauth"))).toBe("OAuthCallbackError")
    expect(config.errors.join("\n")).toMatch(/invalid_grant: nope/)
  })

  it("refuses a profile whose id is a stringified missing value, which would merge users", async () => {
    const { h } = harness({ profile: (profile) => ({ id: String(profile.missing_field), name: "x" }) })
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })

  it("sends a hostile callbackUrl back to the app's origin", async () => {
    const { h } = harness()
    for (const target of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
      const landed = await h.signIn("idp", target)
      expect(new URL(landed.url).origin).toBe(APP)
    }
  })

  it("refuses a sign-in POST without the CSRF token", async () => {
    const { h } = harness()
    const page = await h.browser.navigate(`${APP}/api/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "callbackUrl=%2F",
      initiator: "https://evil.example/",
    })
    expect(errorOf(page)).toBe("MissingCSRF")
  })
})

describe("Auth.js's OAuth provider options against the real OpenID Provider", () => {
  it("signs in with client_secret_jwt: an HS256 assertion instead of the secret (OIDC Core §9)", async () => {
    const { h, config } = harness({ clientId: JWT_CLIENTS.secretJwt.id, clientSecret: JWT_CLIENTS.secretJwt.secret, client: { token_endpoint_auth_method: "client_secret_jwt" } })
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { id: "alice" } })
    expect(config.errors).toEqual([])
  })

  it("signs in with private_key_jwt and `token.clientPrivateKey`, with no client secret (OIDC Core §9, RFC 7523 §2.2)", async () => {
    const key = await clientPrivateKey()
    const { h, config } = harness({
      clientId: JWT_CLIENTS.privateKeyJwt.id,
      clientSecret: undefined,
      client: { token_endpoint_auth_method: "private_key_jwt" },
      token: { clientPrivateKey: { key, kid: CLIENT_KID } },
    })
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { id: "alice" } })
    expect(config.errors).toEqual([])
  })

  it("refuses a private_key_jwt sign-in signed with a key the OP never registered", async () => {
    const stranger = ((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]))).privateKey
    const { h, config } = harness({ clientId: JWT_CLIENTS.privateKeyJwt.id, clientSecret: undefined, client: { token_endpoint_auth_method: "private_key_jwt" }, token: { clientPrivateKey: { key: stranger, kid: CLIENT_KID } } })
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(config.errors.join("\n")).toMatch(/invalid_client/)
  })

  it("sends discovery, keys, token, userinfo and revocation of a provider through its [customFetch]", async () => {
    const counting = countingFetch()
    const h = new Harness(e2eConfig([idpProvider(idp(), { idToken: false, tokensInCookie: true, revokeTokensOnSignOut: true, [customFetch]: counting.fetch })]))
    idp().clearRequests()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    await h.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await h.csrfToken(), callbackUrl: "/bye" }),
      initiator: `${APP}/api/auth/signout`,
    })
    const backchannel = ["/.well-known/openid-configuration", "/jwks", "/token", "/me", "/token/revocation"]
    expect(new Set(counting.paths)).toEqual(new Set(backchannel))
    // Every request our server made to the OP went through it (the browser's own are the others).
    expect(idp().requests.filter((request) => backchannel.includes(request.path)).length).toBe(counting.paths.length)
  })

  it("cuts off a [customFetch] that never answers after the provider's timeout", async () => {
    const hung: typeof fetch = (input, init) => (pathOf(input) === "/token" ? new Promise<Response>(() => undefined) : fetch(input, init))
    const { h, config } = harness({ timeout: 300, [customFetch]: hung })
    const started = Date.now()
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(config.errors.join("\n")).toMatch(/did not answer within 300 ms/)
  })

  it('sends and checks a nonce for an OAuth 2.0 provider with "nonce" in checks (OIDC Core §3.1.3.7 step 11)', async () => {
    const h = new Harness(e2eConfig([oauthProvider(idp(), { checks: ["pkce", "state", "nonce"], jwks_endpoint: `${idp().issuer}/jwks` })]))
    const login = await h.startSignIn("idp-oauth")
    const sent = idp().requests.find((request) => request.path === "/auth")
    expect(new URLSearchParams(sent?.search).get("nonce")).toMatch(/^[\w-]{20,}$/)
    expect((await h.login(login)).url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { id: "alice" } })
  })

  it('refuses an OAuth 2.0 provider\'s ID token whose nonce is not the one sent, with "nonce" in checks', async () => {
    const h = new Harness(e2eConfig([oauthProvider(idp(), { checks: ["pkce", "state", "nonce"], jwks_endpoint: `${idp().issuer}/jwks` })]))
    craftIdToken((claims) => ({ ...claims, nonce: "replayed-nonce" }))
    expect(errorOf(await h.signIn("idp-oauth"))).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })

  it('refuses an OAuth 2.0 provider\'s answer without an ID token, with "nonce" in checks', async () => {
    const h = new Harness(e2eConfig([oauthProvider(idp(), { checks: ["pkce", "state", "nonce"], jwks_endpoint: `${idp().issuer}/jwks` })]))
    idp().onTokenResponse(({ body }) => ({ body: { ...body, id_token: undefined } }))
    expect(errorOf(await h.signIn("idp-oauth"))).toBe("OAuthCallbackError")
    expect(await h.session()).toBeNull()
  })
})

describe("timeouts", () => {
  it("gives up on a token endpoint that does not answer, within the provider's timeout", async () => {
    const { h, config } = harness({ timeout: 300 })
    idp().delay("token", 5_000)
    const started = Date.now()
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(config.errors.join("\n")).toMatch(/did not answer within 300 ms/)
  })

  it("gives up on discovery that does not answer, with OAuthSignInError", async () => {
    // A second OP: the first one's discovery document is already cached, as it should be.
    const slow = await startIdp()
    try {
      slow.delay("discovery", 5_000)
      const h = new Harness(e2eConfig([idpProvider(slow, { timeout: 300 })]))
      expect(errorOf(await h.startSignIn("idp"))).toBe("OAuthSignInError")
    } finally {
      await slow.close()
    }
  })
})

describe("a provider whose configuration is incomplete (issue 35: one unconfigured provider no longer stops all sign-in)", () => {
  const OKTA_SECRET = "okta-client-secret-never-logged"

  /** The shape of Auth.js's Express example: many providers, only some of their variables set. */
  function partialApp() {
    const config = e2eConfig([
      idpProvider(idp()),
      // A tenant provider that is configured, on the real OP.
      Keycloak({ id: "idp-second", issuer: idp().issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, allowInsecureLoopbackRequests: true }),
      // A tenant provider without its issuer, and one without its client id.
      Okta({ clientId: "okta-client", clientSecret: OKTA_SECRET }),
      GitHub({ clientSecret: "github-client-secret" }),
    ])
    return { config, h: new Harness(config) }
  }

  it("lists the others, logs one error per incomplete provider naming what to set, and signs in with the others end to end", async () => {
    const { config, h } = partialApp()
    for (let i = 0; i < 3; i++) {
      const listed = await h.browser.request(`${APP}/api/auth/providers`)
      expect(listed.status).toBe(200)
      expect(Object.keys((await listed.json()) as object)).toEqual(["idp", "idp-second"])
    }
    const page = await h.browser.navigate(`${APP}/api/auth/signin`)
    expect(page.response.status).toBe(200)
    expect(page.body).toContain("Demo IdP")
    expect(page.body).not.toMatch(/Okta|GitHub/)

    expect((await h.signIn("idp")).url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { email: "alice@example.com" } })
    expect((await h.signIn("idp-second")).url).toBe(`${APP}/protected`)

    expect(config.errors).toHaveLength(2)
    expect(config.errors.filter((line) => line.includes("okta"))).toEqual([expect.stringMatching(/^Configuration: okta: set `issuer` or AUTH_OKTA_ISSUER \(/)])
    expect(config.errors.filter((line) => line.includes("github"))).toEqual([expect.stringMatching(/^Configuration: github: set `clientId` or AUTH_GITHUB_ID\b/)])
    expect(config.errors.join("\n")).not.toContain(OKTA_SECRET)
  })

  it("answers the incomplete provider's own routes with the Configuration error page, never a 500, and logs nothing more", async () => {
    const { config, h } = partialApp()
    await h.browser.request(`${APP}/api/auth/providers`)
    const logged = config.errors.length
    const started = await h.startSignIn("okta")
    expect(started.redirects.every((url) => new URL(url).origin === APP)).toBe(true)
    expect(new URL(started.url).pathname).toBe("/api/auth/error")
    expect(errorOf(started)).toBe("Configuration")
    expect(started.response.status).toBe(503)
    const callback = await h.browser.navigate(`${APP}/api/auth/callback/github?code=x&state=y`)
    expect(errorOf(callback)).toBe("Configuration")
    expect(callback.response.status).toBe(503)
    // The other providers still work after the refusals.
    expect((await h.signIn("idp")).url).toBe(`${APP}/protected`)
    expect(config.errors).toHaveLength(logged)
  })
})
