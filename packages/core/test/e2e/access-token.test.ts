// getAccessToken against the real OpenID Provider: refreshes rotate the refresh token, and the
// provider revokes the grant if one is ever spent twice (revokedGrants).
import type { DevIdp } from "@portcullis/dev-idp"
import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { Adapter, AdapterAccount } from "../../src/adapters.js"
import { RefreshTokenError } from "../../src/errors/flow-errors.js"
import { getAccessToken } from "../../src/index.js"
import { SPENT_REFRESH_MEMORY_MS } from "../../src/oauth/access-token.js"
import { decode, encode } from "../../src/session/jwt.js"
import type { AuthConfig } from "../../src/types.js"
import { APP, Harness, SECRET, e2eConfig, idpProvider, useIdp } from "./harness.js"

const idp = useIdp({ consent: "auto" })

interface Setup {
  store: ReturnType<typeof MemoryAdapter>
  config: AuthConfig & { errors: string[] }
  events: [string, unknown][]
  warnings: string[]
  h: Harness
}

function setup(options: { idp?: DevIdp; adapter?: (store: ReturnType<typeof MemoryAdapter>) => Adapter; strategy?: "jwt" | "database" } = {}): Setup {
  const store = MemoryAdapter()
  const events: [string, unknown][] = []
  const warnings: string[] = []
  const provider = options.idp ?? idp()
  const config = e2eConfig([idpProvider(provider), idpProvider(provider, { id: "idp-second", name: "Second IdP" })], {
    adapter: options.adapter?.(store) ?? store,
    session: { strategy: options.strategy ?? "database" },
    events: {
      refreshToken: (message) => {
        events.push(["refreshToken", message])
      },
      refreshTokenError: (message) => {
        events.push(["refreshTokenError", message])
      },
    },
  })
  config.logger = { ...config.logger, warn: (code) => warnings.push(code) }
  return { store, config, events, warnings, h: new Harness(config) }
}

/** A request of the signed-in browser to an app page, as the app's server would pass it on. */
function appRequest(h: Harness): Request {
  const cookie = h.browser.cookies(APP).map(({ name, value }) => `${name}=${value}`).join("; ")
  return new Request(`${APP}/dashboard`, { headers: { cookie } })
}

async function accountOf(store: ReturnType<typeof MemoryAdapter>, userId: string, provider = "idp"): Promise<AdapterAccount> {
  const account = (await store.listAccountsByUserId(userId)).find((candidate) => candidate.provider === provider)
  if (account === undefined) throw new Error(`no ${provider} account`)
  return account
}

async function signedIn(s: Setup): Promise<AdapterAccount> {
  await s.h.signIn()
  const session = (await s.h.session()) as { user: { id: string } }
  return accountOf(s.store, session.user.id)
}

/** Makes the stored access token expired, as time would. */
async function expire(store: ReturnType<typeof MemoryAdapter>, account: AdapterAccount): Promise<void> {
  await store.updateAccount({ provider: account.provider, providerAccountId: account.providerAccountId, expires_at: Math.floor(Date.now() / 1000) - 1 })
}

describe("getAccessToken", () => {
  it("returns the stored token while it is fresh, without a refresh", async () => {
    const s = setup()
    const account = await signedIn(s)
    expect(typeof account.refresh_token).toBe("string")
    const token = await getAccessToken(appRequest(s.h), s.config, "idp")
    expect(token).toEqual({ accessToken: account.access_token, expiresAt: account.expires_at, scope: account.scope, tokenType: "bearer" })
    expect(idp().refreshGrants).toBe(0)
  })

  it("refreshes an expired token at the provider, stores the new tokens, and reports it", async () => {
    const s = setup()
    const account = await signedIn(s)
    await expire(s.store, account)
    const token = await getAccessToken(appRequest(s.h), s.config, "idp")
    expect(idp().refreshGrants).toBe(1)
    expect(token?.accessToken).not.toBe(account.access_token)
    expect(token?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 60)
    const stored = await accountOf(s.store, account.userId)
    expect(stored.access_token).toBe(token?.accessToken)
    // The provider rotated it: the new one is stored, the spent one is gone.
    expect(stored.refresh_token).not.toBe(account.refresh_token)
    expect(s.events.map(([name]) => name)).toEqual(["refreshToken"])
    // The new token works at the provider.
    const userinfo = await fetch(`${idp().issuer}/me`, { headers: { authorization: `Bearer ${token?.accessToken ?? ""}` } })
    expect(userinfo.status).toBe(200)
    // And the next call uses it without another refresh.
    expect(await getAccessToken(appRequest(s.h), s.config, "idp")).toEqual(token)
    expect(idp().refreshGrants).toBe(1)
    expect(idp().revokedGrants).toBe(0)
  })

  it("refreshes a token within 60 seconds of expiry", async () => {
    const s = setup()
    const account = await signedIn(s)
    await s.store.updateAccount({ provider: "idp", providerAccountId: account.providerAccountId, expires_at: Math.floor(Date.now() / 1000) + 50 })
    await getAccessToken(appRequest(s.h), s.config, "idp")
    expect(idp().refreshGrants).toBe(1)
  })

  it("makes one refresh for many concurrent calls in one process", async () => {
    const s = setup()
    const account = await signedIn(s)
    await expire(s.store, account)
    const tokens = await Promise.all(Array.from({ length: 20 }, () => getAccessToken(appRequest(s.h), s.config, "idp")))
    expect(idp().refreshGrants).toBe(1)
    expect(new Set(tokens.map((token) => token?.accessToken)).size).toBe(1)
    expect(idp().revokedGrants).toBe(0)
  })

  it("works for JWT sessions with an adapter", async () => {
    const s = setup({ strategy: "jwt" })
    const account = await signedIn(s)
    await expire(s.store, account)
    const token = await getAccessToken(appRequest(s.h), s.config, "idp")
    expect(token?.accessToken).toBe((await accountOf(s.store, account.userId)).access_token)
    expect(idp().refreshGrants).toBe(1)
  })

  it("records refresh_token_expires_in as refresh_token_expires_at", async () => {
    const s = setup()
    const account = await signedIn(s)
    await expire(s.store, account)
    idp().onTokenResponse(({ body }) => ({ body: { ...body, refresh_token_expires_in: 3600 } }))
    await getAccessToken(appRequest(s.h), s.config, "idp")
    const stored = await accountOf(s.store, account.userId)
    expect(stored.refresh_token_expires_at).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 3590)
    expect(stored.refresh_token_expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600)
  })

  it("does not spend a refresh token past its refresh_token_expires_at", async () => {
    const s = setup()
    const account = await signedIn(s)
    await s.store.updateAccount({ provider: "idp", providerAccountId: account.providerAccountId, expires_at: 1, refresh_token_expires_at: Math.floor(Date.now() / 1000) - 1 })
    await expect(getAccessToken(appRequest(s.h), s.config, "idp")).rejects.toMatchObject({ code: "RefreshTokenError", message: expect.stringContaining("refresh_token_expires_at") as string })
    expect(idp().requests.filter((request) => request.path === "/token")).toHaveLength(1)
  })

  it("answers null when the request has no session, or the user no account at the provider", async () => {
    const s = setup()
    expect(await getAccessToken(new Request(`${APP}/dashboard`), s.config, "idp")).toBeNull()
    await signedIn(s)
    expect(await getAccessToken(appRequest(s.h), s.config, "idp-second")).toBeNull()
  })

  it("refuses a provider id that names no OAuth provider", async () => {
    const s = setup()
    await expect(getAccessToken(new Request(`${APP}/dashboard`), s.config, "nope")).rejects.toMatchObject({ code: "InvalidProvider" })
  })

  it("rejects with RefreshTokenError when the provider refuses the refresh token, and leaves the session alone", async () => {
    const s = setup()
    const account = await signedIn(s)
    await s.store.updateAccount({ provider: "idp", providerAccountId: account.providerAccountId, refresh_token: "not-a-refresh-token", expires_at: 1 })
    const failure: unknown = await getAccessToken(appRequest(s.h), s.config, "idp").catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RefreshTokenError)
    expect(failure).toMatchObject({ code: "RefreshTokenError", message: expect.stringContaining("invalid_grant") as string })
    expect(s.events.map(([name]) => name)).toEqual(["refreshTokenError"])
    expect(await s.h.session()).toMatchObject({ user: { email: "alice@example.com" } })
    // Rejected once, not retried in a loop: one token request reached the provider.
    expect(idp().requests.filter((request) => request.path === "/token")).toHaveLength(2)
  })

  it("rejects with RefreshTokenError when the token expired and the account has no refresh token", async () => {
    const s = setup()
    const account = await signedIn(s)
    await s.store.updateAccount({ provider: "idp", providerAccountId: account.providerAccountId, refresh_token: undefined, expires_at: 1 })
    await expect(getAccessToken(appRequest(s.h), s.config, "idp")).rejects.toMatchObject({ code: "RefreshTokenError", message: expect.stringContaining("no refresh token") as string })
  })

  it("after invalid_grant, reads the account again and uses the tokens another instance stored", async () => {
    // An instance without the lock spent the refresh token first, while this one read the old account.
    let stale: AdapterAccount | undefined
    const s = setup({
      adapter: (store) => ({
        ...store,
        withAccountLock: undefined,
        listAccountsByUserId: (userId) => (stale === undefined ? store.listAccountsByUserId(userId) : [stale]),
        getAccount(providerAccountId, provider) {
          const answer = stale ?? store.getAccount(providerAccountId, provider)
          stale = undefined
          return answer
        },
      }),
    })
    const account = await signedIn(s)
    await expire(s.store, account)
    const winner = await getAccessToken(appRequest(s.h), s.config, "idp")
    stale = { ...account, expires_at: 1 }
    expect(await getAccessToken(appRequest(s.h), s.config, "idp")).toEqual(winner)
    // The spent token reached the provider (which is why a shared store needs withAccountLock).
    expect(idp().refreshGrants).toBe(1)
    expect(idp().revokedGrants).toBe(1)
    expect(s.warnings).toContain("RefreshWithoutLock")
  })

  it("names updateAccount when the adapter cannot store refreshed tokens", async () => {
    const s = setup({ adapter: (store) => ({ ...store, updateAccount: undefined }) })
    const account = await signedIn(s)
    await expire(s.store, account)
    await expect(getAccessToken(appRequest(s.h), s.config, "idp")).rejects.toMatchObject({ code: "Configuration", message: expect.stringContaining("`updateAccount`") as string })
    expect(idp().refreshGrants).toBe(0)
  })
})

describe("getAccessToken with a provider that keeps its refresh token (Google)", () => {
  const google = useIdp({ consent: "auto", rotateRefreshTokens: false })

  it("keeps the old refresh token over three refreshes", async () => {
    const s = setup({ idp: google() })
    const account = await signedIn(s)
    // Google answers a refresh without a refresh_token.
    google().onTokenResponse(({ body }) => {
      const { refresh_token: _kept, ...rest } = body
      return { body: rest }
    })
    const seen = new Set<string>()
    for (let round = 0; round < 3; round++) {
      await expire(s.store, account)
      const token = await getAccessToken(appRequest(s.h), s.config, "idp")
      seen.add(token?.accessToken ?? "")
      expect((await accountOf(s.store, account.userId)).refresh_token).toBe(account.refresh_token)
    }
    expect(seen.size).toBe(3)
    expect(google().refreshGrants).toBe(3)
  })
})

describe("getAccessToken with tokens kept in the session cookie (JWT sessions, no adapter)", () => {
  // Access tokens live 30 s, inside the 60 s margin: every call finds them due.
  const shortLived = useIdp({ consent: "auto", accessTokenTtl: 30 })

  function cookieSetup(provider: DevIdp, tokensInCookie = true): { config: AuthConfig & { errors: string[] }; events: string[]; h: Harness } {
    const events: string[] = []
    const config = e2eConfig([idpProvider(provider, { tokensInCookie })], {
      session: { strategy: "jwt" },
      events: { refreshToken: () => void events.push("refreshToken"), refreshTokenError: () => void events.push("refreshTokenError") },
    })
    return { config, events, h: new Harness(config) }
  }

  it("returns a fresh token from the cookie, without a refresh and without a cookie sink", async () => {
    const { config, h } = cookieSetup(idp())
    await h.signIn()
    const token = await getAccessToken(appRequest(h), config, "idp")
    expect(typeof token?.accessToken).toBe("string")
    const userinfo = await fetch(`${idp().issuer}/me`, { headers: { authorization: `Bearer ${token?.accessToken ?? ""}` } })
    expect(userinfo.status).toBe(200)
    expect(idp().refreshGrants).toBe(0)
  })

  it("refreshes a due token and renews the cookie through the sink, which keeps the rotated refresh token", async () => {
    const { config, events, h } = cookieSetup(shortLived())
    await h.signIn()
    const cookies: string[] = []
    const first = await getAccessToken(appRequest(h), config, "idp", (cookie) => cookies.push(cookie))
    expect(shortLived().refreshGrants).toBe(1)
    expect(cookies.some((cookie) => cookie.startsWith("authjs.session-token"))).toBe(true)
    for (const cookie of cookies) h.browser.setCookie(APP, cookie)
    // The renewed cookie carries the rotated refresh token: spending the old one again would revoke the grant.
    const second = await getAccessToken(appRequest(h), config, "idp", (cookie) => { h.browser.setCookie(APP, cookie); })
    expect(second?.accessToken).not.toBe(first?.accessToken)
    expect(shortLived().refreshGrants).toBe(2)
    expect(shortLived().revokedGrants).toBe(0)
    expect(events).toEqual(["refreshToken", "refreshToken"])
    // The session is still there, and reads as before.
    expect(await h.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("hands a stale cookie that arrives after a finished refresh the new tokens, not a second refresh that revokes the grant (RFC 6749 §10.4, RFC 9700 §4.14.2)", async () => {
    const { config, events, h } = cookieSetup(shortLived())
    await h.signIn()
    // A request that left the browser before the renewed cookie came back (another tab, a retry).
    const stale = appRequest(h)
    const first = await getAccessToken(appRequest(h), config, "idp", () => undefined)
    expect(shortLived().refreshGrants).toBe(1)

    const caughtUp: string[] = []
    const late = await getAccessToken(stale, config, "idp", (cookie) => caughtUp.push(cookie))
    expect(late?.accessToken).toBe(first?.accessToken)
    expect(shortLived().refreshGrants).toBe(1)
    expect(shortLived().revokedGrants).toBe(0)
    expect(caughtUp.some((cookie) => cookie.startsWith("authjs.session-token"))).toBe(true)

    // The grant survives: the stale request's cookie, too, refreshes once more at the provider.
    for (const cookie of caughtUp) h.browser.setCookie(APP, cookie)
    const next = await getAccessToken(appRequest(h), config, "idp", (cookie) => {
      h.browser.setCookie(APP, cookie)
    })
    expect(next?.accessToken).not.toBe(first?.accessToken)
    expect(shortLived().refreshGrants).toBe(2)
    expect(shortLived().revokedGrants).toBe(0)
    expect(events).toEqual(["refreshToken", "refreshToken"])
  })

  it("follows a stale cookie through the refreshes that came after it, to the newest tokens", async () => {
    const { config, h } = cookieSetup(shortLived())
    await h.signIn()
    const stale = appRequest(h)
    await getAccessToken(appRequest(h), config, "idp", (cookie) => {
      h.browser.setCookie(APP, cookie)
    })
    const newest = await getAccessToken(appRequest(h), config, "idp", (cookie) => {
      h.browser.setCookie(APP, cookie)
    })
    expect(shortLived().refreshGrants).toBe(2)
    expect((await getAccessToken(stale, config, "idp", () => undefined))?.accessToken).toBe(newest?.accessToken)
    expect(shortLived().refreshGrants).toBe(2)
    expect(shortLived().revokedGrants).toBe(0)
  })

  it("forgets a finished refresh after SPENT_REFRESH_MEMORY_MS (60 s): a cookie that old spends its token again", async () => {
    const { config, h } = cookieSetup(shortLived())
    await h.signIn()
    const stale = appRequest(h)
    await getAccessToken(appRequest(h), config, "idp", () => undefined)
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + SPENT_REFRESH_MEMORY_MS + 1000 })
    try {
      await expect(getAccessToken(stale, config, "idp", () => undefined)).rejects.toMatchObject({ code: "RefreshTokenError", message: expect.stringContaining("invalid_grant") as string })
    } finally {
      vi.useRealTimers()
    }
    expect(SPENT_REFRESH_MEMORY_MS).toBeLessThanOrEqual(60_000)
  })

  it("never hands a remembered refresh to another user's session carrying the spent refresh token", async () => {
    const { config, h } = cookieSetup(shortLived())
    await h.signIn()
    const sealed = h.browser.cookies(APP).find(({ name }) => name === "authjs.session-token")?.value ?? ""
    const alice = await decode({ token: sealed, secret: SECRET, salt: "authjs.session-token" })
    const bob = await encode({ token: { ...alice, sub: "bob", email: "bob@example.com" }, secret: SECRET, salt: "authjs.session-token" })
    const first = await getAccessToken(appRequest(h), config, "idp", () => undefined)
    const answer: unknown = await getAccessToken(new Request(`${APP}/dashboard`, { headers: { cookie: `authjs.session-token=${bob}` } }), config, "idp", () => undefined).catch((error: unknown) => error)
    expect(answer).toBeInstanceOf(RefreshTokenError)
    expect(JSON.stringify(answer)).not.toContain(first?.accessToken ?? "-")
  })

  it("refuses a due refresh without a cookie sink, before it spends the refresh token", async () => {
    const { config, events, h } = cookieSetup(shortLived())
    await h.signIn()
    await expect(getAccessToken(appRequest(h), config, "idp")).rejects.toMatchObject({ code: "RefreshTokenError", message: expect.stringContaining("setCookie") as string })
    expect(shortLived().refreshGrants).toBe(0)
    expect(events).toEqual(["refreshTokenError"])
  })

  it("answers null when signed out", async () => {
    const { config } = cookieSetup(idp())
    expect(await getAccessToken(new Request(`${APP}/dashboard`), config, "idp", () => undefined)).toBeNull()
  })

  it("asks for an adapter or tokensInCookie when neither is there", async () => {
    const { config } = cookieSetup(idp(), false)
    await expect(getAccessToken(new Request(`${APP}/dashboard`), config, "idp")).rejects.toMatchObject({ code: "Configuration", message: expect.stringContaining("tokensInCookie") as string })
  })
})
