// OpenID Connect Back-Channel Logout 1.0 §2.6, check by check, with logout tokens the real
// OpenID Provider signs (or crafts wrong on purpose): every invalid one is refused, naming why.
import { afterEach, describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import { verifyLogoutToken } from "../../src/oauth/logout-token.js"
import type { InternalOAuthProvider } from "../../src/oauth/provider.js"
import { CLIENT, e2eConfig, idpProvider, useIdp } from "./harness.js"

const idp = useIdp({ signingAlgs: ["RS256", "ES256"] })

async function provider(): Promise<InternalOAuthProvider> {
  const config = await resolveConfig(e2eConfig([idpProvider(idp())]))
  return config.providers[0]?.options as InternalOAuthProvider
}

async function refusal(token: Promise<string>): Promise<string> {
  const error: unknown = await verifyLogoutToken(await provider(), await token).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toMatchObject({ code: "InvalidLogoutToken" })
  return (error as Error).message
}

afterEach(() => {
  vi.useRealTimers()
})

describe("a logout token", () => {
  it("is accepted when the provider signed it for us, and says whose sessions end", async () => {
    const claims = await verifyLogoutToken(await provider(), await idp().logoutToken({ clientId: CLIENT.id, sub: "alice", sid: "session-1" }))
    expect(claims).toMatchObject({ sub: "alice", sid: "session-1" })
    expect(claims.jti.length).toBeGreaterThan(10)
    // With an ES256 key, an audience array, and `sid` alone.
    const ec = await idp().logoutToken({ clientId: CLIENT.id, sid: "session-2", aud: ["other", CLIENT.id] }, { alg: "ES256" })
    expect(await verifyLogoutToken(await provider(), ec)).toMatchObject({ sid: "session-2" })
  })

  it("is refused with a signature by a key the provider never published", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { key: "foreign" }))).toMatch(/signature/)
  })

  it("is refused unsigned (alg: none)", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { alg: "none" }))).toMatch(/alg/)
  })

  it("is refused for another audience", async () => {
    expect(await refusal(idp().logoutToken({ clientId: "someone-else", sub: "alice" }))).toMatch(/aud/)
  })

  it("is refused from another issuer, even signed with the provider's key", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", iss: "https://evil.example" }))).toMatch(/iss/)
  })

  it("is refused stale (iat), expired (exp) or from the future", async () => {
    const now = Math.floor(Date.now() / 1000)
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", iat: now - 3600 }))).toMatch(/older/)
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", exp: now - 600 }))).toMatch(/expired/)
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", iat: now + 3600 }))).toMatch(/future/)
  })

  it("is refused without the back-channel logout event", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", events: undefined }))).toMatch(/event/)
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", events: { "https://example.com/other": {} } }))).toMatch(/event/)
  })

  it("is refused with a nonce: an ID token is not a logout token", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", nonce: "n" }))).toMatch(/nonce/)
  })

  it("is refused without a jti, and without both sub and sid", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice", jti: undefined }))).toMatch(/jti/)
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id }))).toMatch(/neither/)
  })

  it("is refused with a typ that is not logout+jwt (an ID token's), and accepted without one", async () => {
    expect(await refusal(idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { typ: "JWT" }))).toMatch(/typ/)
    expect(await verifyLogoutToken(await provider(), await idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { typ: null }))).toMatchObject({ sub: "alice" })
  })

  it("is refused with a crit header naming an extension we do not understand (RFC 7515 §4.1.11, ASVS 9.1.1)", async () => {
    // Correctly signed by the provider: only the critical extension makes it unusable.
    const critical = idp().logoutToken({ clientId: CLIENT.id, sub: "alice" }, { critical: { "urn:example:must-understand": true } })
    expect(await refusal(critical)).toMatch(/crit/)
  })

  it("is refused when it is not a JWS at all", async () => {
    for (const token of ["", "a.b", "not.a.jwt", `${"x".repeat(20_000)}.y.z`]) expect(await refusal(Promise.resolve(token))).toBeTruthy()
  })
})
