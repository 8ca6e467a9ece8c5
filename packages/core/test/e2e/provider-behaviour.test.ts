/**
 * Security item 5: what a real identity provider does that we handled too strictly (key
 * rotation) or too loosely (`azp`, a provider that hangs).
 */
import { createServer, type Socket } from "node:net"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { decodeJwt } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import type { InternalOAuthProvider } from "../../src/oauth/provider.js"
import { DEFAULT_CALLBACK_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "../../src/config/read.js"
import { verifyLogoutToken } from "../../src/oauth/logout-token.js"
import { KEY_REFETCH_INTERVAL_MS } from "../../src/oauth/server.js"
import { APP, CLIENT, Harness, e2eConfig, errorOf, idpProvider, oauthProvider, useIdp } from "./harness.js"

const idp = useIdp()

function harness(overrides: Parameters<typeof idpProvider>[1] = {}) {
  const config = e2eConfig([idpProvider(idp(), overrides), oauthProvider(idp(), { timeout: 400, callbackTimeout: 700 })])
  return { config, h: new Harness(config) }
}

/** Re-signs the next ID tokens with `kid` (a key the IdP published by rotating, or never). */
function signIdTokensWith(kid: string): void {
  idp().onTokenResponse(async ({ body }) => ({
    body: { ...body, id_token: await idp().signJwt(decodeJwt(String(body.id_token)), { key: "foreign", kid }) },
  }))
}

const jwksRequests = (): number => idp().requests.filter((request) => request.path === "/jwks").length

afterEach(() => {
  vi.useRealTimers()
})

describe("signing key rotation", () => {
  it("signs in at once with a key the provider starts using seconds after a sign-in fetched its keys", async () => {
    const { h, config } = harness()
    await h.signIn()
    signIdTokensWith(await idp().rotateKey())
    idp().clearRequests()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(jwksRequests()).toBe(1)
    expect(config.errors).toEqual([])
  })

  it("signs in with a rotated key long after the last fetch, fetching the keys once more", async () => {
    const { h, config } = harness()
    await h.signIn()
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + KEY_REFETCH_INTERVAL_MS + 1000 })
    signIdTokensWith(await idp().rotateKey())
    idp().clearRequests()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(jwksRequests()).toBe(1)
    expect(config.errors).toEqual([])
  })

  it("a flood of unknown kids, one by one or all at once, refetches the keys at most once per interval (no hammering)", async () => {
    const { h, config } = harness()
    await h.signIn()
    signIdTokensWith("a-kid-nobody-published")
    const held = await Promise.all(Array.from({ length: 4 }, async () => {
      const other = new Harness(config)
      return { other, callback: await other.holdCallback() }
    }))
    idp().clearRequests()
    const landed = await Promise.all(held.map(({ other, callback }) => other.callback(callback)))
    expect(landed.map(errorOf)).toEqual(held.map(() => "OAuthCallbackError"))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(jwksRequests(), "one refetch for the first unknown kid, none for the rest").toBe(1)
    expect(config.errors.join("\n")).toMatch(/verification key/)

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + KEY_REFETCH_INTERVAL_MS + 1000 })
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(jwksRequests(), "one more once the interval has passed").toBe(2)
  })
})

describe("one key set per provider for ID tokens and logout tokens", () => {
  /** The provider the harness signs in with, as core resolved it: the object both checks key their cache by. */
  async function resolvedProvider(config: ReturnType<typeof harness>["config"]): Promise<InternalOAuthProvider> {
    return (await resolveConfig(config)).providers[0]?.options as InternalOAuthProvider
  }

  it("fetches the provider's keys once for an ID-token sign-in and a logout token after it (OIDC Back-Channel Logout §2.6)", async () => {
    const { h, config } = harness()
    idp().clearRequests()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(await verifyLogoutToken(await resolvedProvider(config), await idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }))).toMatchObject({ sub: "alice" })
    expect(jwksRequests()).toBe(1)
  })

  it("fetches them once for a logout token and an ID-token sign-in after it", async () => {
    const { h, config } = harness()
    idp().clearRequests()
    expect(await verifyLogoutToken(await resolvedProvider(config), await idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }))).toMatchObject({ sub: "alice" })
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(jwksRequests()).toBe(1)
  })

  it("a key rotated under an ID token serves the next logout token without another fetch (OIDC Core §10.1.1)", async () => {
    const { h, config } = harness()
    await h.signIn()
    const kid = await idp().rotateKey()
    signIdTokensWith(kid)
    idp().clearRequests()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(await verifyLogoutToken(await resolvedProvider(config), await idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { key: "foreign", kid }))).toMatchObject({ sub: "alice" })
    expect(jwksRequests()).toBe(1)
  })

  it("a key rotated under a logout token serves the next ID token without another fetch (OIDC Core §10.1.1)", async () => {
    const { h, config } = harness()
    await h.signIn()
    const kid = await idp().rotateKey()
    idp().clearRequests()
    expect(await verifyLogoutToken(await resolvedProvider(config), await idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { key: "foreign", kid }))).toMatchObject({ sub: "alice" })
    signIdTokensWith(kid)
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    expect(jwksRequests()).toBe(1)
    expect(config.errors).toEqual([])
  })

  it("unknown kids in logout tokens and ID tokens alike refetch the keys at most once per interval", async () => {
    const { h, config } = harness()
    await h.signIn()
    const provider = await resolvedProvider(config)
    idp().clearRequests()
    for (let i = 0; i < 3; i++) {
      const token = idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { key: "foreign", kid: "a-kid-nobody-published" })
      await expect(verifyLogoutToken(provider, await token)).rejects.toMatchObject({ code: "InvalidLogoutToken" })
    }
    signIdTokensWith("a-kid-nobody-published")
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(jwksRequests(), "one refetch for the first unknown kid, none for the rest").toBe(1)
  })
})

describe("ID token claims", () => {
  it("refuses an ID token whose azp names another client, even with a single audience", async () => {
    const { h, config } = harness()
    idp().onTokenResponse(async ({ body }) => ({
      body: { ...body, id_token: await idp().signJwt({ ...decodeJwt(String(body.id_token)), azp: "another-client" }) },
    }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(config.errors.join("\n")).toMatch(/azp "another-client"/)
    expect(await h.session()).toBeNull()
  })

  it("accepts an azp equal to our client id", async () => {
    const { h } = harness()
    idp().onTokenResponse(async ({ body }) => {
      const claims = decodeJwt(String(body.id_token))
      return { body: { ...body, id_token: await idp().signJwt({ ...claims, azp: claims.aud }) } }
    })
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
  })
})

describe("a provider that hangs", () => {
  it("defaults to 5 s per request and 15 s for a whole callback", async () => {
    const config = await resolveConfig(e2eConfig([idpProvider(idp())]))
    const provider = config.providers[0]
    const options = provider?.options as InternalOAuthProvider | undefined
    expect(provider?.type === "oidc" ? [options?.timeout, options?.callbackTimeout] : []).toEqual([DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_CALLBACK_TIMEOUT_MS])
    expect([DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_CALLBACK_TIMEOUT_MS]).toEqual([5_000, 15_000])
  })

  it("gives up on one hung request after the provider's timeout", async () => {
    const { h, config } = harness()
    idp().delay("token", 5_000)
    const started = Date.now()
    expect(errorOf(await h.signIn("idp-oauth"))).toBe("OAuthCallbackError")
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(config.errors.join("\n")).toMatch(/did not answer within 400 ms/)
  })

  it("gives up on a callback whose requests each answer in time but together take too long", async () => {
    const config = e2eConfig([oauthProvider(idp(), { timeout: 3_000, callbackTimeout: 800 })])
    const h = new Harness(config)
    idp().delay("token", 500)
    idp().delay("userinfo", 500)
    h.hold = true
    await h.signIn("idp-oauth")
    const held = h.held
    idp().clearRequests()
    const started = Date.now()
    expect(errorOf(await h.callback(held ?? ""))).toBe("OAuthCallbackError")
    expect(Date.now() - started).toBeLessThan(2_500)
    expect(config.errors.join("\n")).toMatch(/within 800 ms \(`callbackTimeout`\)/)
  })

  it("gives up on a token endpoint that accepts and never answers after the provider's timeout, under garbage-collection pressure (Node 20)", async () => {
    // Node 20's AbortSignal.any holds its sources weakly: a collected AbortSignal.timeout never fires.
    setFlagsFromString("--expose-gc")
    const gc = runInNewContext("gc") as () => void
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const { port } = silent.address() as { port: number }
    const config = e2eConfig([oauthProvider(idp(), { token: `http://127.0.0.1:${port}/token`, timeout: 300, callbackTimeout: 4_000 })])
    const h = new Harness(config)
    h.hold = true
    await h.signIn("idp-oauth")
    const pressure = setInterval(() => {
      Array.from({ length: 20_000 }, (_, i) => ({ i }))
      gc()
    }, 20)
    try {
      const started = Date.now()
      expect(errorOf(await h.callback(h.held ?? ""))).toBe("OAuthCallbackError")
      // Today's Node 20 failure waits for the whole callback: the per-request timeout must end it first.
      expect(config.errors.join("\n")).toMatch(/did not answer within 300 ms/)
      expect(Date.now() - started).toBeLessThan(4_000)
    } finally {
      clearInterval(pressure)
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  })

  it("cuts off a profile callback that never settles", async () => {
    const config = e2eConfig([oauthProvider(idp(), { callbackTimeout: 500, profile: () => new Promise(() => undefined) })])
    const h = new Harness(config)
    expect(errorOf(await h.signIn("idp-oauth"))).toBe("OAuthCallbackError")
    expect(config.errors.join("\n")).toMatch(/within 500 ms/)
  })
})
