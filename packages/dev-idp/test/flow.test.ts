import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose"
import * as oauth from "oauth4webapi"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"

import { MFA_ACR, startDevIdp, type DevIdp } from "../src/index.js"
import { APP, REDIRECT_URI, beginFlow, clickThrough, exchangeCode, insecure, lastCallback } from "./relying-party.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startDevIdp({
    clients: [
      { client_id: "app", client_secret: "app-secret", redirect_uris: [REDIRECT_URI] },
      {
        client_id: "offline-app",
        client_secret: "offline-secret",
        client_name: "Offline App",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
      },
    ],
  })
})

afterEach(() => {
  idp.reset()
})

afterAll(async () => {
  await idp.close()
})

describe("authorization code flow", () => {
  it("signs in with PKCE, state and nonce, then reads userinfo", async () => {
    const flow = await beginFlow(idp)
    const page = await clickThrough(flow)

    expect(page.url).toMatch(/^http:\/\/localhost:3000\/callback\?/u)
    expect(page.body).toContain("signed in")
    const callback = lastCallback(flow)
    expect(callback.method).toBe("GET")
    expect(callback.params.get("iss")).toBe(idp.issuer)
    expect(callback.cookie).toContain("rp_lax=1")

    const result = await exchangeCode(flow, callback)
    const claims = oauth.getValidatedIdTokenClaims(result)
    expect(claims).toMatchObject({
      iss: idp.issuer,
      aud: "app",
      sub: "alice",
      nonce: flow.nonce,
      email: "alice@example.com",
      email_verified: true,
      name: "Alice Example",
    })
    const { payload } = await jwtVerify(String(result.id_token), createLocalJWKSet(idp.jwks), { issuer: idp.issuer })
    expect(payload.sub).toBe("alice")

    const userinfo = await oauth.processUserInfoResponse(
      flow.as,
      flow.client,
      "alice",
      await oauth.userInfoRequest(flow.as, flow.client, result.access_token, insecure),
    )
    expect(userinfo).toEqual({
      sub: "alice",
      email: "alice@example.com",
      email_verified: true,
      name: "Alice Example",
      picture: `${idp.issuer}/avatars/alice.svg`,
    })
  })

  it("delivers the response with response_mode=form_post, without the app's Lax cookies", async () => {
    const flow = await beginFlow(idp, { responseMode: "form_post" })
    let page = await flow.browser.navigate(`${APP}/login`)
    page = await flow.browser.submitForm(page, { values: { login: "alice@example.com", password: "alice-password" } })
    page = await flow.browser.submitForm(page, { button: "Allow" })
    expect(page.url.startsWith(idp.issuer)).toBe(true)
    expect(page.body).toContain('<form method="post" action="http://localhost:3000/callback">')

    page = await flow.browser.submitForm(page)
    expect(page.url).toBe(REDIRECT_URI)
    const callback = lastCallback(flow)
    expect(callback.method).toBe("POST")
    // A cross-site POST carries SameSite=None cookies only, as in a browser.
    expect(callback.cookie).toBe("rp_none=1")

    const claims = oauth.getValidatedIdTokenClaims(await exchangeCode(flow, callback))
    expect(claims?.sub).toBe("alice")
  })

  it("shows the login page again with an error after a wrong password", async () => {
    const flow = await beginFlow(idp)
    const login = await flow.browser.navigate(`${APP}/login`)
    const retry = await flow.browser.submitForm(login, { values: { login: "alice@example.com", password: "wrong" } })

    expect(retry.url).toMatch(/\/interaction\/[\w-]+\/login$/u)
    expect(retry.body).toContain("Wrong email or password")
    expect(retry.body).toContain('value="alice@example.com"')

    let page = await flow.browser.submitForm(retry, { values: { password: "alice-password" } })
    page = await flow.browser.submitForm(page, { button: "Allow" })
    expect(lastCallback(flow).params.has("code")).toBe(true)
    expect(page.url.startsWith(REDIRECT_URI)).toBe(true)
  })

  it("RFC 8176: carol's ID token says her login was multi-factor (amr pwd+otp, acr MFA_ACR); alice's says pwd and no acr", async () => {
    const carol = await beginFlow(idp)
    await clickThrough(carol, { login: "carol@example.org", password: "carol-password" })
    const claims = oauth.getValidatedIdTokenClaims(await exchangeCode(carol, lastCallback(carol)))
    expect(claims).toMatchObject({ sub: "carol", amr: ["pwd", "otp"], acr: MFA_ACR })
    const alice = await beginFlow(idp)
    await clickThrough(alice)
    const plain = oauth.getValidatedIdTokenClaims(await exchangeCode(alice, lastCallback(alice)))
    expect(plain?.amr).toEqual(["pwd"])
    expect(plain?.acr).toBeUndefined()
  })

  it("returns access_denied when the user denies consent", async () => {
    const flow = await beginFlow(idp)
    let page = await flow.browser.navigate(`${APP}/login`)
    page = await flow.browser.submitForm(page, { values: { login: "bob@example.net", password: "bob-password" } })
    expect(page.body).toContain("bob@example.net")
    await flow.browser.submitForm(page, { formIndex: 1 })

    const callback = lastCallback(flow)
    expect(callback.params.get("error")).toBe("access_denied")
    expect(() => oauth.validateAuthResponse(flow.as, flow.client, callback.params, flow.state)).toThrow(
      oauth.AuthorizationResponseError,
    )
  })

  it("reuses the IdP session and the grant on a second sign-in", async () => {
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    const second = await flow.browser.navigate(`${APP}/login`)
    expect(second.url.startsWith(REDIRECT_URI)).toBe(true)
    expect(second.redirects.some((url) => url.includes("/interaction/"))).toBe(false)
  })

  it("issues refresh tokens to clients registered for the refresh_token grant", async () => {
    const flow = await beginFlow(idp, { clientId: "offline-app" })
    let page = await flow.browser.navigate(`${APP}/login`)
    expect(page.body).toContain("Offline App")
    page = await flow.browser.submitForm(page, { values: { login: "alice", password: "alice-password" } })
    await flow.browser.submitForm(page, { button: "Allow" })

    const result = await exchangeCode(flow, lastCallback(flow), "offline-secret")
    expect(typeof result.refresh_token).toBe("string")
    const refreshed = await oauth.processRefreshTokenResponse(
      flow.as,
      flow.client,
      await oauth.refreshTokenGrantRequest(
        flow.as,
        flow.client,
        oauth.ClientSecretBasic("offline-secret"),
        String(result.refresh_token),
        insecure,
      ),
    )
    expect(typeof refreshed.access_token).toBe("string")
  })

  it("rotates refresh tokens, counts refresh grants, and revokes the grant when a spent one comes back", async () => {
    const flow = await beginFlow(idp, { clientId: "offline-app" })
    let page = await flow.browser.navigate(`${APP}/login`)
    page = await flow.browser.submitForm(page, { values: { login: "alice", password: "alice-password" } })
    await flow.browser.submitForm(page, { button: "Allow" })
    const result = await exchangeCode(flow, lastCallback(flow), "offline-secret")
    const refresh = async (token: string) =>
      oauth.processRefreshTokenResponse(
        flow.as,
        flow.client,
        await oauth.refreshTokenGrantRequest(flow.as, flow.client, oauth.ClientSecretBasic("offline-secret"), token, insecure),
      )
    const first = String(result.refresh_token)
    const rotated = await refresh(first)
    expect(typeof rotated.refresh_token).toBe("string")
    expect(rotated.refresh_token).not.toBe(first)
    expect(idp.refreshGrants).toBe(1)
    expect(idp.revokedGrants).toBe(0)

    // The spent token again: oidc-provider takes it as stolen and revokes the grant, the new token with it.
    await expect(refresh(first)).rejects.toMatchObject({ error: "invalid_grant" })
    expect(idp.revokedGrants).toBe(1)
    await expect(refresh(String(rotated.refresh_token))).rejects.toMatchObject({ error: "invalid_grant" })
    expect(idp.refreshGrants).toBe(1)
  })

  it("records every request, so a test can count discovery fetches", async () => {
    const flow = await beginFlow(idp)
    await exchangeCode(flow, (await clickThrough(flow), lastCallback(flow)))
    const paths = idp.requests.map((request) => `${request.method} ${request.path}`)
    expect(paths.filter((path) => path === "GET /.well-known/openid-configuration")).toHaveLength(1)
    expect(paths).toContain("POST /token")
    expect(idp.requests.find((request) => request.path === "/auth")?.search).toContain("code_challenge_method=S256")
  })
})

describe("test hooks", () => {
  it("onTokenResponse: a crafted id_token with another nonce is rejected by the client", async () => {
    idp.onTokenResponse(async ({ body }) => ({
      body: { ...body, id_token: await idp.signJwt({ ...decodeJwt(String(body.id_token)), nonce: "replayed" }) },
    }))
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    await expect(exchangeCode(flow, lastCallback(flow))).rejects.toThrow(/nonce/u)
  })

  it("onTokenResponse: a crafted id_token from another issuer is rejected", async () => {
    idp.onTokenResponse(async ({ body }) => ({
      body: { ...body, id_token: await idp.signJwt({ ...decodeJwt(String(body.id_token)), iss: "https://evil.example" }) },
    }))
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    await expect(exchangeCode(flow, lastCallback(flow))).rejects.toThrow(/iss/u)
  })

  it("onTokenResponse: dropping token_type fails the client's response check", async () => {
    idp.onTokenResponse(({ body }) => ({ body: { ...body, token_type: undefined } }))
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    await expect(exchangeCode(flow, lastCallback(flow))).rejects.toThrow(/token_type/u)
  })

  it("onTokenResponse: replaces the status and sends a body that is not JSON", async () => {
    idp.onTokenResponse(() => ({ status: 502, body: "<html>bad gateway</html>", headers: { "content-type": "text/html" } }))
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    const params = oauth.validateAuthResponse(flow.as, flow.client, lastCallback(flow).params, flow.state)
    const response = await oauth.authorizationCodeGrantRequest(
      flow.as,
      flow.client,
      oauth.ClientSecretBasic("app-secret"),
      params,
      REDIRECT_URI,
      flow.codeVerifier,
      insecure,
    )
    expect(response.status).toBe(502)
    expect(response.headers.get("content-type")).toBe("text/html")
    expect(await response.text()).toBe("<html>bad gateway</html>")
  })

  it("onUserinfoResponse: a userinfo answer about another subject is rejected", async () => {
    idp.onUserinfoResponse(({ body }) => ({ body: { ...(body as Record<string, unknown>), sub: "mallory" } }))
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    const result = await exchangeCode(flow, lastCallback(flow))
    const response = await oauth.userInfoRequest(flow.as, flow.client, result.access_token, insecure)
    await expect(oauth.processUserInfoResponse(flow.as, flow.client, "alice", response)).rejects.toThrow(/sub/u)
  })

  it("delay: stalls the token endpoint past the client's timeout, and 0 removes it", async () => {
    const flow = await beginFlow(idp)
    await clickThrough(flow)
    idp.delay("token", 5_000)
    await expect(exchangeCode(flow, lastCallback(flow), "app-secret", { signal: AbortSignal.timeout(100) })).rejects.toThrow(
      /timeout|aborted/iu,
    )

    idp.delay("token", 0)
    const retry = await beginFlow(idp)
    await clickThrough(retry)
    const started = Date.now()
    await exchangeCode(retry, lastCallback(retry))
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it("delay: stalls discovery and jwks", async () => {
    idp.delay("discovery", 150)
    idp.delay("jwks", 150)
    const started = Date.now()
    await fetch(`${idp.issuer}/.well-known/openid-configuration`)
    await fetch(`${idp.issuer}/jwks`)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it("signJwt: signs with the published key, or a foreign key that does not verify", async () => {
    const jwks = createLocalJWKSet(idp.jwks)
    const claims = { iss: idp.issuer, sub: "alice", aud: "app" }

    const own = await idp.signJwt(claims)
    expect(decodeProtectedHeader(own)).toEqual({ alg: "RS256", kid: idp.jwks.keys[0]?.kid })
    expect((await jwtVerify(own, jwks)).payload).toEqual(claims)

    const foreign = await idp.signJwt(claims, { key: "foreign" })
    expect(decodeProtectedHeader(foreign).kid).toBe(idp.jwks.keys[0]?.kid)
    await expect(jwtVerify(foreign, jwks)).rejects.toThrow(/signature verification failed/u)

    const unknownKid = await idp.signJwt(claims, { key: "foreign", kid: "someone-else" })
    await expect(jwtVerify(unknownKid, jwks)).rejects.toThrow(/no applicable key/iu)

    const unsecured = await idp.signJwt(claims, { alg: "none" })
    expect(unsecured.endsWith(".")).toBe(true)
    expect(decodeProtectedHeader(unsecured).alg).toBe("none")

    await expect(idp.signJwt(claims, { alg: "ES256" })).rejects.toThrow(/no ES256 key/u)
  })
})

describe("startDevIdp", () => {
  it("serves the same public keys as devIdp.jwks, and ES256 ID tokens when asked", async () => {
    const es = await startDevIdp({
      signingAlgs: ["ES256", "RS256"],
      consent: "auto",
      clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [REDIRECT_URI] }],
    })
    try {
      const served = (await (await fetch(`${es.issuer}/jwks`)).json()) as { keys: { kid: string }[] }
      expect(served.keys.map((key) => key.kid).sort()).toEqual(es.jwks.keys.map((key) => key.kid).sort())
      expect(es.jwks.keys.every((key) => key.d === undefined)).toBe(true)

      const flow = await beginFlow(es)
      const client: oauth.Client = { ...flow.client, id_token_signed_response_alg: "ES256" }
      let page = await flow.browser.navigate(`${APP}/login`)
      page = await flow.browser.submitForm(page, { values: { login: "alice@example.com", password: "alice-password" } })
      // consent: "auto" goes straight from the login form to the callback.
      expect(page.url.startsWith(REDIRECT_URI)).toBe(true)
      const result = await exchangeCode({ ...flow, client }, lastCallback(flow))
      expect(decodeProtectedHeader(String(result.id_token)).alg).toBe("ES256")
    } finally {
      await es.close()
    }
  })

  it("rejects invalid options, naming them", async () => {
    await expect(startDevIdp({ clients: [] })).rejects.toThrow(/options\.clients must list/u)
    await expect(
      startDevIdp({ clients: [{ client_id: "x", redirect_uris: [REDIRECT_URI] }] }),
    ).rejects.toThrow(/options\.clients\[0\] \(x\) is invalid: client_secret is mandatory/u)
    await expect(
      startDevIdp({
        clients: [{ client_id: "x", client_secret: "s", redirect_uris: [REDIRECT_URI] }],
        accounts: [{ sub: "a", email: "a@example.com", name: "A", password: "" }],
      }),
    ).rejects.toThrow(/options\.accounts\[0\]\.password/u)
    const account = { sub: "a", email: "a@example.com", name: "A", password: "p" }
    await expect(startDevIdp({ clients: [{ client_id: "x", client_secret: "s", redirect_uris: [REDIRECT_URI] }], accounts: [{ ...account, amr: [] }] })).rejects.toThrow(/options\.accounts\[0\]\.amr/u)
    await expect(startDevIdp({ clients: [{ client_id: "x", client_secret: "s", redirect_uris: [REDIRECT_URI] }], accounts: [{ ...account, acr: "two words" }] })).rejects.toThrow(/options\.accounts\[0\]\.acr/u)
    const client = { client_id: "x", client_secret: "s", redirect_uris: [REDIRECT_URI] }
    await expect(startDevIdp({ clients: [client], logoutConfirmation: "never" as "auto" })).rejects.toThrow(/options\.logoutConfirmation/u)
    await expect(startDevIdp({ clients: [client], revocation: "yes" as unknown as boolean })).rejects.toThrow(/options\.revocation must be a boolean/u)
    await expect(
      startDevIdp({ clients: [{ ...client, backchannel_logout_uri: "not a url" }] }),
    ).rejects.toThrow(/options\.clients\[0\] \(x\) is invalid: backchannel_logout_uri/u)
    await expect(
      startDevIdp({ backchannelLogout: false, clients: [{ ...client, backchannel_logout_uri: "http://localhost:3000/bcl" }] }),
    ).rejects.toThrow(/options\.clients\[0\]\.backchannel_logout_uri needs options\.backchannelLogout/u)
    await expect(
      startDevIdp({ endSession: false, clients: [{ ...client, post_logout_redirect_uris: ["http://localhost:3000/bye"] }] }),
    ).rejects.toThrow(/options\.clients\[0\]\.post_logout_redirect_uris needs options\.endSession/u)
  })

  it("closes promptly with a delayed request pending", async () => {
    const closing = await startDevIdp({ clients: [{ client_id: "x", client_secret: "s", redirect_uris: [REDIRECT_URI] }] })
    closing.delay("discovery", 60_000)
    const pending = fetch(`${closing.issuer}/.well-known/openid-configuration`)
    // Pending once the IdP has it: requests are recorded as they arrive, before the delay.
    await expect.poll(() => closing.requests.some(({ path }) => path === "/.well-known/openid-configuration")).toBe(true)
    const started = Date.now()
    await closing.close()
    expect(Date.now() - started).toBeLessThan(1_000)
    await expect(pending).rejects.toThrow()
  })
})
