import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"

import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { BACKCHANNEL_LOGOUT_EVENT, startDevIdp, type DevIdp } from "../src/index.js"
import { APP, POST_LOGOUT_REDIRECT_URI, REDIRECT_URI, beginFlow, clickThrough, exchangeCode, lastCallback, type Flow, type FlowOptions } from "./relying-party.js"

/** A relying party's back-channel logout endpoint on a real port: records what the IdP posts. */
interface Receiver {
  served: ServedHandler
  received: { contentType: string | null; logoutToken: string | null }[]
  status: number
}

let receiver: Receiver
let idp: DevIdp

beforeAll(async () => {
  const received: Receiver["received"] = []
  const state = { status: 200 }
  const served = await serveHandler(async (request) => {
    const form = new URLSearchParams(await request.text())
    received.push({ contentType: request.headers.get("content-type"), logoutToken: form.get("logout_token") })
    return new Response(null, { status: state.status, headers: { "cache-control": "no-store" } })
  })
  receiver = {
    served,
    received,
    get status() {
      return state.status
    },
    set status(value) {
      state.status = value
    },
  }
  idp = await startDevIdp({
    consent: "auto",
    logoutConfirmation: "auto",
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: [REDIRECT_URI],
        post_logout_redirect_uris: [POST_LOGOUT_REDIRECT_URI],
        backchannel_logout_uri: `${served.origin}/backchannel-logout`,
      },
    ],
  })
})

afterEach(() => {
  idp.reset()
  receiver.received.length = 0
  receiver.status = 200
})

afterAll(async () => {
  await idp.close()
  await receiver.served.close()
})

/** Signs alice (or `login`) in through the browser; returns the flow, the ID token, its claims and the access token. */
async function signIn(on: DevIdp = idp, login?: FlowOptions): Promise<{ flow: Flow; idToken: string; claims: JWTPayload; accessToken: string }> {
  const flow = await beginFlow(on)
  await clickThrough(flow, login)
  const result = await exchangeCode(flow, lastCallback(flow))
  const idToken = String(result.id_token)
  return { flow, idToken, claims: decodeJwt(idToken), accessToken: result.access_token }
}

function endSessionUrl(on: DevIdp, params: Record<string, string>): string {
  return `${on.issuer}/session/end?${new URLSearchParams(params).toString()}`
}

/** Whether the browser's IdP session still signs it in without the login form. */
async function stillSignedIn(flow: Flow): Promise<boolean> {
  const page = await flow.browser.navigate(`${APP}/login`)
  if (page.url.startsWith(REDIRECT_URI)) return true
  expect(page.body).toContain("Sign in")
  expect(new URL(page.url).pathname).toMatch(/^\/interaction\//u)
  return false
}

describe("discovery", () => {
  it("advertises the end-session and revocation endpoints and back-channel logout with sid", async () => {
    const metadata = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(metadata).toMatchObject({
      end_session_endpoint: `${idp.issuer}/session/end`,
      revocation_endpoint: `${idp.issuer}/token/revocation`,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    })
  })

  it("leaves out what is turned off", async () => {
    const bare = await startDevIdp({
      endSession: false,
      backchannelLogout: false,
      revocation: false,
      clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [REDIRECT_URI] }],
    })
    try {
      const metadata = (await (await fetch(`${bare.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
      expect(metadata).not.toHaveProperty("end_session_endpoint")
      expect(metadata).not.toHaveProperty("revocation_endpoint")
      expect(metadata).not.toHaveProperty("backchannel_logout_supported")
      expect((await fetch(`${bare.issuer}/session/end`)).status).toBe(404)
    } finally {
      await bare.close()
    }
  })
})

describe("RP-initiated logout", () => {
  it("puts sid in the ID token of a client registered for back-channel logout", async () => {
    const { claims } = await signIn()
    expect(typeof claims.sid).toBe("string")
  })

  it("ends the IdP session at once with id_token_hint, then the next authorization shows the login form", async () => {
    const { flow, idToken } = await signIn()
    expect(await stillSignedIn(flow)).toBe(true)

    const page = await flow.browser.navigate(
      endSessionUrl(idp, { id_token_hint: idToken, client_id: "app", state: "st-1", post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }),
    )
    // One redirect, no confirmation page: straight back to the relying party with its state.
    expect(page.redirects).toHaveLength(2)
    expect(page.url).toBe(`${POST_LOGOUT_REDIRECT_URI}?state=st-1`)
    expect(page.body).toContain("signed out")
    expect(flow.rp.loggedOut.map((url) => url.searchParams.get("state"))).toEqual(["st-1"])

    expect(await stillSignedIn(flow)).toBe(false)
  })

  it("revokes the session's grant: an access token issued before stops working", async () => {
    const { flow, idToken, accessToken } = await signIn()
    const userinfo = () => fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect((await userinfo()).status).toBe(200)

    await flow.browser.navigate(endSessionUrl(idp, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }))
    expect((await userinfo()).status).toBe(401)
    expect(idp.revokedGrants).toBe(1)
  })

  it("asks for confirmation without an id_token_hint, even with logoutConfirmation: auto", async () => {
    const { flow } = await signIn()
    let page = await flow.browser.navigate(
      endSessionUrl(idp, { client_id: "app", state: "st-2", post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }),
    )
    expect(page.body).toContain("Sign out?")
    expect(await stillSignedIn(flow)).toBe(true)

    page = await flow.browser.submitForm(page, { button: "Sign out" })
    expect(page.url).toBe(`${POST_LOGOUT_REDIRECT_URI}?state=st-2`)
    expect(await stillSignedIn(flow)).toBe(false)
  })

  it("refuses an id_token_hint signed by another key and keeps the session", async () => {
    const { flow, claims } = await signIn()
    const forged = await idp.signJwt(claims, { key: "foreign" })
    const page = await flow.browser.navigate(endSessionUrl(idp, { id_token_hint: forged, post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }))
    expect(page.response.status).toBe(400)
    expect(page.body).toContain("id_token_hint")
    expect(flow.rp.loggedOut).toHaveLength(0)
    expect(receiver.received).toHaveLength(0)
    expect(await stillSignedIn(flow)).toBe(true)
  })

  it("refuses a post_logout_redirect_uri that is not registered", async () => {
    const { flow, idToken } = await signIn()
    const page = await flow.browser.navigate(endSessionUrl(idp, { id_token_hint: idToken, post_logout_redirect_uri: `${APP}/elsewhere` }))
    expect(page.response.status).toBe(400)
    expect(page.body).toContain("post_logout_redirect_uri not registered")
    expect(await stillSignedIn(flow)).toBe(true)
  })

  it("asks by default (logoutConfirmation: prompt), and Sign out ends the session", async () => {
    const prompting = await startDevIdp({
      consent: "auto",
      clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [REDIRECT_URI], post_logout_redirect_uris: [POST_LOGOUT_REDIRECT_URI] }],
    })
    try {
      const { flow, idToken } = await signIn(prompting)
      let page = await flow.browser.navigate(
        endSessionUrl(prompting, { id_token_hint: idToken, state: "st-3", post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }),
      )
      expect(page.body).toContain("Sign out?")
      page = await flow.browser.submitForm(page, { button: "Sign out" })
      expect(page.url).toBe(`${POST_LOGOUT_REDIRECT_URI}?state=st-3`)
      expect(await stillSignedIn(flow)).toBe(false)
    } finally {
      await prompting.close()
    }
  })
})

describe("back-channel logout", () => {
  it("POSTs a logout token that verifies against the IdP's JWKS, for the session's sub and sid", async () => {
    const { flow, idToken, claims } = await signIn()
    const started = Math.floor(Date.now() / 1000)
    await flow.browser.navigate(endSessionUrl(idp, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }))

    expect(receiver.received).toHaveLength(1)
    const [delivery] = receiver.received
    expect(delivery?.contentType).toBe("application/x-www-form-urlencoded")
    const logoutToken = String(delivery?.logoutToken)
    const { payload, protectedHeader } = await jwtVerify(logoutToken, createLocalJWKSet(idp.jwks), {
      issuer: idp.issuer,
      audience: "app",
      typ: "logout+jwt",
    })
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: idp.jwks.keys[0]?.kid })
    expect(payload).toMatchObject({ sub: "alice", sid: claims.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })
    expect(payload).not.toHaveProperty("nonce")
    expect(typeof payload.jti).toBe("string")
    expect(payload.iat).toBeGreaterThanOrEqual(started - 1)
    expect(payload.exp).toBe(Number(payload.iat) + 120)
    expect(idp.backchannelLogouts).toEqual([{ clientId: "app", sub: "alice", sid: claims.sid, error: undefined }])
  })

  it("records a delivery the relying party refused, and still ends the session", async () => {
    receiver.status = 500
    const { flow, idToken } = await signIn()
    const page = await flow.browser.navigate(endSessionUrl(idp, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI }))
    expect(page.url).toBe(POST_LOGOUT_REDIRECT_URI)
    expect(idp.backchannelLogouts).toMatchObject([{ clientId: "app", sub: "alice", error: expect.stringContaining("500") as unknown }])
    expect(await stillSignedIn(flow)).toBe(false)
  })

  it("sends through options.fetch, so a relying party in process receives it", async () => {
    const inProcess: Request[] = []
    const local = await startDevIdp({
      consent: "auto",
      logoutConfirmation: "auto",
      fetch: (request) => {
        inProcess.push(request)
        return Promise.resolve(new Response(null, { status: 200 }))
      },
      clients: [
        {
          client_id: "app",
          client_secret: "app-secret",
          redirect_uris: [REDIRECT_URI],
          post_logout_redirect_uris: [POST_LOGOUT_REDIRECT_URI],
          backchannel_logout_uri: `${APP}/api/auth/backchannel-logout/idp`,
        },
      ],
    })
    try {
      const { flow, idToken } = await signIn(local)
      await flow.browser.navigate(endSessionUrl(local, { id_token_hint: idToken }))
      expect(inProcess.map((request) => `${request.method} ${request.url}`)).toEqual([`POST ${APP}/api/auth/backchannel-logout/idp`])
      const token = new URLSearchParams(await inProcess[0]?.text()).get("logout_token")
      expect(decodeJwt(String(token)).sub).toBe("alice")
      expect(local.backchannelLogouts).toHaveLength(1)
    } finally {
      await local.close()
    }
  })
})

describe("endSessions", () => {
  it("ends an account's sessions without a browser: a logout token per client, grants revoked, login form next", async () => {
    const admin = await startDevIdp({
      consent: "auto",
      clients: [
        { client_id: "app", client_secret: "app-secret", redirect_uris: [REDIRECT_URI], backchannel_logout_uri: `${receiver.served.origin}/backchannel-logout` },
      ],
    })
    try {
      const alice = await signIn(admin)
      const bob = await signIn(admin, { login: "bob@example.net", password: "bob-password" })

      const sent = await admin.endSessions("alice")
      expect(sent).toEqual([{ clientId: "app", sub: "alice", sid: alice.claims.sid, error: undefined }])
      expect(admin.backchannelLogouts).toEqual(sent)
      expect(receiver.received).toHaveLength(1)
      const { payload } = await jwtVerify(String(receiver.received[0]?.logoutToken), createLocalJWKSet(admin.jwks), {
        issuer: admin.issuer,
        audience: "app",
        typ: "logout+jwt",
      })
      expect(payload).toMatchObject({ sub: "alice", sid: alice.claims.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })

      expect(await stillSignedIn(alice.flow)).toBe(false)
      expect((await fetch(`${admin.issuer}/me`, { headers: { authorization: `Bearer ${alice.accessToken}` } })).status).toBe(401)
      expect(admin.revokedGrants).toBe(1)
      // Another account's session is left alone.
      expect(await stillSignedIn(bob.flow)).toBe(true)
      expect(await admin.endSessions("nobody")).toEqual([])
    } finally {
      await admin.close()
    }
  })
})

describe("backchannel_logout_session_required: false", () => {
  it("leaves sid out of the ID token and the logout token, which names the sub only", async () => {
    const subOnly = await startDevIdp({
      consent: "auto",
      logoutConfirmation: "auto",
      clients: [
        {
          client_id: "app",
          client_secret: "app-secret",
          redirect_uris: [REDIRECT_URI],
          backchannel_logout_uri: `${receiver.served.origin}/backchannel-logout`,
          backchannel_logout_session_required: false,
        },
      ],
    })
    try {
      const { flow, idToken, claims } = await signIn(subOnly)
      expect(claims).not.toHaveProperty("sid")
      await flow.browser.navigate(endSessionUrl(subOnly, { id_token_hint: idToken }))
      expect(subOnly.backchannelLogouts).toEqual([{ clientId: "app", sub: "alice", sid: undefined, error: undefined }])
      const token = decodeJwt(String(receiver.received[0]?.logoutToken))
      expect(token.sub).toBe("alice")
      expect(token).not.toHaveProperty("sid")
    } finally {
      await subOnly.close()
    }
  })
})

describe("logoutToken", () => {
  const jwks = () => createLocalJWKSet(idp.jwks)
  const verify = (token: string) => jwtVerify(token, jwks(), { issuer: idp.issuer, audience: "app" })

  it("makes the token the IdP sends: same header, same claims", async () => {
    const { flow, idToken, claims } = await signIn()
    await flow.browser.navigate(endSessionUrl(idp, { id_token_hint: idToken }))
    const sent = String(receiver.received[0]?.logoutToken)

    const crafted = await idp.logoutToken({ clientId: "app", sub: "alice", sid: String(claims.sid) })
    expect(decodeProtectedHeader(crafted)).toEqual(decodeProtectedHeader(sent))
    expect(Object.keys(decodeJwt(crafted)).sort()).toEqual(Object.keys(decodeJwt(sent)).sort())
    const { payload } = await verify(crafted)
    expect(payload).toMatchObject({ sub: "alice", sid: claims.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })
    expect(payload.jti).not.toBe(decodeJwt(sent).jti)
  })

  it("a foreign key: the signature does not verify", async () => {
    const token = await idp.logoutToken({ clientId: "app", sub: "alice" }, { key: "foreign" })
    await expect(verify(token)).rejects.toThrow(/signature verification failed/u)
  })

  it("alg none: an unsecured token", async () => {
    const token = await idp.logoutToken({ clientId: "app", sub: "alice" }, { alg: "none" })
    expect(decodeProtectedHeader(token)).toEqual({ alg: "none", typ: "logout+jwt" })
    expect(token.endsWith(".")).toBe(true)
    await expect(verify(token)).rejects.toThrow()
  })

  it("another audience", async () => {
    const token = await idp.logoutToken({ clientId: "app", sub: "alice", aud: ["other-app"] })
    await expect(verify(token)).rejects.toThrow(/aud/u)
  })

  it("no events claim, a nonce, a stale iat: correctly signed, wrong claims", async () => {
    const stale = Math.floor(Date.now() / 1000) - 3600
    const noEvent = (await verify(await idp.logoutToken({ clientId: "app", sub: "alice", events: undefined }))).payload
    expect(noEvent).not.toHaveProperty("events")
    expect((await verify(await idp.logoutToken({ clientId: "app", sid: "s-1", nonce: "n-1" }))).payload).toMatchObject({ nonce: "n-1", sid: "s-1" })
    const old = decodeJwt(await idp.logoutToken({ clientId: "app", sub: "alice", iat: stale, exp: stale + 120 }))
    expect(old).toMatchObject({ iat: stale, exp: stale + 120 })
  })

  it("typ variations: another typ, or none", async () => {
    expect(decodeProtectedHeader(await idp.logoutToken({ clientId: "app", sub: "alice" }, { typ: "JWT" })).typ).toBe("JWT")
    expect(decodeProtectedHeader(await idp.logoutToken({ clientId: "app", sub: "alice" }, { typ: null }))).not.toHaveProperty("typ")
  })

  it("a jti of the test's choosing, to replay one", async () => {
    const first = decodeJwt(await idp.logoutToken({ clientId: "app", sub: "alice", jti: "once" }))
    const second = decodeJwt(await idp.logoutToken({ clientId: "app", sub: "alice", jti: "once" }))
    expect([first.jti, second.jti]).toEqual(["once", "once"])
    const fresh = [await idp.logoutToken({ clientId: "app", sub: "alice" }), await idp.logoutToken({ clientId: "app", sub: "alice" })]
    expect(decodeJwt(fresh[0] ?? "").jti).not.toBe(decodeJwt(fresh[1] ?? "").jti)
  })
})
