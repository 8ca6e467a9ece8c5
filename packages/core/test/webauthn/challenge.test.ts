/**
 * Passkey challenges through `Auth()`: a sign-in's challenge is remembered in a sealed cookie of
 * the browser that asked, never in the store; a registration's in the store. Each is good once,
 * for a few minutes, in that browser, and only at the provider that issued it.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { Adapter } from "../../src/adapters.js"
import { Jar, ORIGIN, call, csrfToken } from "../helpers.js"
import { FLAGS, SoftAuthenticator } from "./authenticator.js"
import { challengeCookieName, expectRefused, options, passkeyProvider, post, session, setup } from "./harness.js"

/** The MemoryAdapter, recording the name of every method called. */
function recorded(): { adapter: Adapter; calls: string[] } {
  const calls: string[] = []
  const inner = MemoryAdapter() as unknown as Record<string, unknown>
  const adapter = new Proxy(inner, {
    get(target, key: string) {
      const value = target[key]
      if (typeof value !== "function") return value
      return (...args: unknown[]) => {
        calls.push(key)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  }) as unknown as Adapter
  return { adapter, calls }
}

/** A user signed up with a passkey on `device`, signed out again. */
async function signedUp(ctx: ReturnType<typeof setup>, device = new SoftAuthenticator(ORIGIN), email = "ada@example.com") {
  const jar = new Jar()
  const { options: creation } = await options(ctx.config, jar, `?action=register&email=${encodeURIComponent(email)}`)
  expect((await post(ctx.config, jar, "register", await device.create(creation))).status).toBe(302)
  return device
}

afterEach(() => {
  vi.useRealTimers()
})

describe("a sign-in's challenge", () => {
  it("is written nowhere in the store: options requests from strangers cost no rows", async () => {
    const { adapter, calls } = recorded()
    const ctx = setup({ adapter })
    for (let i = 0; i < 3; i++) {
      const jar = new Jar()
      const { action } = await options(ctx.config, jar, "?action=authenticate")
      expect(action).toBe("authenticate")
      expect(challengeCookieName(jar)).toBeDefined()
    }
    // Without the action too: a signed-out browser signs in.
    await options(ctx.config, new Jar())
    expect(calls).toEqual([])
  })

  it("signs in once with the cookie, which the callback clears", async () => {
    const ctx = setup()
    const device = await signedUp(ctx)
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    const data = await device.get(request)
    const response = await post(ctx.config, jar, "authenticate", data)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
    expect(challengeCookieName(jar)).toBeUndefined()
    // The same response again, in the same browser: the cookie is gone.
    const again = new Jar()
    for (const [name, value] of jar.cookies) if (name.includes("csrf")) again.cookies.set(name, value)
    await expectRefused(await post(ctx.config, again, "authenticate", data), ctx.config, again, /no challenge cookie/)
  })

  it("attack: is refused without its cookie", async () => {
    const ctx = setup()
    const device = await signedUp(ctx)
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    jar.cookies.delete(challengeCookieName(jar) ?? "")
    await expectRefused(await post(ctx.config, jar, "authenticate", await device.get(request)), ctx.config, jar, /no challenge cookie/)
  })

  it("attack: is refused with another browser's challenge cookie", async () => {
    const ctx = setup()
    const device = await signedUp(ctx)
    const victim = new Jar()
    await options(ctx.config, victim, "?action=authenticate")
    const attacker = new Jar()
    const { options: request } = await options(ctx.config, attacker, "?action=authenticate")
    const name = challengeCookieName(attacker) ?? ""
    attacker.cookies.set(name, victim.cookies.get(name) ?? "")
    await expectRefused(await post(ctx.config, attacker, "authenticate", await device.get(request)), ctx.config, attacker, /set in another browser/)
  })

  it("attack: is refused with a cookie that does not open, or names another challenge of the browser", async () => {
    const ctx = setup()
    const device = await signedUp(ctx)
    const jar = new Jar()
    const { options: first } = await options(ctx.config, jar, "?action=authenticate")
    const name = challengeCookieName(jar) ?? ""
    const cookie = jar.cookies.get(name) ?? ""
    jar.cookies.set(name, `${cookie.slice(0, -4)}AAAA`)
    await expectRefused(await post(ctx.config, jar, "authenticate", await device.get(first)), ctx.config, jar, /not set by this server/)
    // Starting another sign-in replaces the cookie: the first challenge no longer signs in.
    const { options: older } = await options(ctx.config, jar, "?action=authenticate")
    await options(ctx.config, jar, "?action=authenticate")
    await expectRefused(await post(ctx.config, jar, "authenticate", await device.get(older)), ctx.config, jar, /another sign-in's challenge/)
  })

  it("is refused once expired", async () => {
    const ctx = setup()
    const device = await signedUp(ctx)
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    const data = await device.get(request)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 5 * 60 * 1000 + 2000)
    await expectRefused(await post(ctx.config, jar, "authenticate", data), ctx.config, jar, /expired/)
  })
})

/** A passkey sign-in as a network observer captures it: the request's cookies and its form. */
async function capturedSignIn(ctx: ReturnType<typeof setup>, device: SoftAuthenticator): Promise<{ jar: Jar; cookies: Map<string, string>; form: Record<string, string> }> {
  const jar = new Jar()
  const { options: request } = await options(ctx.config, jar, "?action=authenticate")
  const form = { action: "authenticate", data: JSON.stringify(await device.get(request)), csrfToken: await csrfToken(ctx.config, jar), callbackUrl: `${ORIGIN}/account` }
  return { jar, cookies: new Map(jar.cookies), form }
}

/** The MemoryAdapter without `useOnce`, as a store that keeps no single-use keys. */
function withoutUseOnce(): Adapter {
  const adapter: Adapter = MemoryAdapter()
  delete adapter.useOnce
  return adapter
}

describe("a sign-in's challenge is single use (WebAuthn §13.4.3)", () => {
  for (const [store, adapter] of [
    ["an adapter with useOnce", () => MemoryAdapter()],
    ["an adapter without useOnce", withoutUseOnce],
  ] as const) {
    it(`attack: a captured sign-in (body and challenge cookie) replayed after sign-out is refused, with a synced passkey (counter 0), on ${store}`, async () => {
      const warnings: string[] = []
      const ctx = setup({ adapter: adapter() })
      ctx.config.logger = { ...ctx.config.logger, warn: (code) => warnings.push(code) }
      const device = await signedUp(ctx, new SoftAuthenticator(ORIGIN, false))
      const captured = await capturedSignIn(ctx, device)
      expect((await call(ctx.config, captured.jar, "/api/auth/callback/passkey", { form: captured.form })).headers.get("location")).toBe(`${ORIGIN}/account`)
      expect((await session(ctx.config, captured.jar))?.user?.email).toBe("ada@example.com")
      await call(ctx.config, captured.jar, "/api/auth/signout", { form: { csrfToken: await csrfToken(ctx.config, captured.jar) } })
      expect(await session(ctx.config, captured.jar)).toBeNull()

      const replay = new Jar()
      for (const [name, value] of captured.cookies) replay.cookies.set(name, value)
      await expectRefused(await call(ctx.config, replay, "/api/auth/callback/passkey", { form: captured.form }), ctx.config, replay, /challenge was used already/)
      // Only a store without `useOnce` holds the spent challenge in this process alone, and says so once.
      const second = await capturedSignIn(ctx, device)
      expect((await call(ctx.config, second.jar, "/api/auth/callback/passkey", { form: second.form })).headers.get("location")).toBe(`${ORIGIN}/account`)
      expect(warnings.filter((code) => code === "PasskeyChallengePerInstance")).toHaveLength(store === "an adapter with useOnce" ? 0 : 1)
    })
  }

  it("remembers a spent challenge only after a valid assertion: a refused one writes nothing", async () => {
    const { adapter, calls } = recorded()
    const ctx = setup({ adapter })
    const device = await signedUp(ctx, new SoftAuthenticator(ORIGIN, false))
    calls.length = 0
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    await expectRefused(await post(ctx.config, jar, "authenticate", await device.get(request, { flags: FLAGS.UP })), ctx.config, jar, /did not verify/)
    expect(calls).not.toContain("useOnce")
  })
})

/** The passkey provider beside a `WebAuthn()`-like one that only prefers user verification. */
function bothProviders() {
  const lenient = passkeyProvider({ id: "webauthn", name: "WebAuthn", userVerification: "preferred" })
  return setup({ providers: [passkeyProvider() as never, lenient as never] })
}

describe("a challenge names the provider that issued it", () => {
  it("attack: registration options of Passkey() (user verification required) do not register at WebAuthn()'s callback without it", async () => {
    const ctx = bothProviders()
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=eve%40example.com", "passkey")
    const unverified = await new SoftAuthenticator(ORIGIN).create(creation, { flags: FLAGS.UP | FLAGS.AT })
    await expectRefused(await post(ctx.config, jar, "register", unverified, {}, "webauthn"), ctx.config, jar, /another provider than "webauthn"/)
    expect(await ctx.adapter.getUserByEmail("eve@example.com")).toBeNull()
  })

  it("attack: a sign-in challenge of one provider does not sign in at the other", async () => {
    const ctx = bothProviders()
    const device = await signedUp(ctx)
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate", "webauthn")
    await expectRefused(await post(ctx.config, jar, "authenticate", await device.get(request), {}, "passkey"), ctx.config, jar, /another provider than "passkey"/)
  })

  it("still signs in at the provider that issued it", async () => {
    const ctx = bothProviders()
    const device = await signedUp(ctx)
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate", "webauthn")
    expect((await post(ctx.config, jar, "authenticate", await device.get(request), {}, "webauthn")).headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, jar))?.user?.email).toBe("ada@example.com")
  })
})

describe("the answer to the passkey client", () => {
  const asClient = { "x-auth-return-redirect": "1" }

  it("says the credential is unknown only in the body of a refusal, never because the callbackUrl says code=unknown_credential", async () => {
    const ctx = setup()
    const device = await signedUp(ctx)
    const crafted = `${ORIGIN}/x?code=unknown_credential&error=WebAuthnVerificationError`
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    const success = await post(ctx.config, jar, "authenticate", await device.get(request), { callbackUrl: crafted }, "passkey", asClient)
    expect(await success.json()).toEqual({ url: crafted })

    const unknown = new SoftAuthenticator(ORIGIN)
    await unknown.create((await options(ctx.config, new Jar(), "?action=register&email=gone%40example.com")).options)
    const refusedJar = new Jar()
    const { options: again } = await options(ctx.config, refusedJar, "?action=authenticate")
    const refused = await post(ctx.config, refusedJar, "authenticate", await unknown.get(again), { callbackUrl: crafted }, "passkey", asClient)
    const body = (await refused.json()) as { url: string; error?: string; code?: string }
    expect([body.error, body.code]).toEqual(["WebAuthnVerificationError", "unknown_credential"])
    expect(new URL(body.url).pathname).toBe("/api/auth/signin")
    // The refusal clears the challenge cookie like any use.
    expect(challengeCookieName(refusedJar)).toBeUndefined()
    expect((await call(ctx.config, refusedJar, "/api/auth/session")).status).toBe(200)
    expect(await session(ctx.config, refusedJar)).toBeNull()
  })
})
