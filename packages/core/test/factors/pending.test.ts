/**
 * The pending sign-in the gate makes for a user who owes a second factor: no session, a sealed
 * cookie bound to the browser for at most 5 minutes, wrong codes counted on the server by its id
 * (5 end it), completed once: a replayed cookie neither resets its count nor completes it twice.
 */
import { afterEach, describe, expect, it, vi } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { sealFactorSecret } from "../../src/factors/sealed-secret.js"
import { PENDING_ATTEMPTS, completePending, failPending, readPending } from "../../src/factors/pending.js"
import { newTotpSecret } from "../../src/factors/totp.js"
import { createContext } from "../../src/http/context.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, SECRET, call, csrfToken, location, passwordProvider, setCookies, testConfig } from "../helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

async function configWithFactor(): Promise<AuthConfig> {
  const adapter = MemoryAdapter({
    users: [{ id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }],
    authFactors: [{ id: "totp-1", userId: "user-ada", type: "totp", secret: await sealFactorSecret([SECRET], newTotpSecret(), "user-ada"), createdAt: new Date(), confirmedAt: new Date() }],
  })
  return testConfig({ adapter, providers: [passwordProvider()], mfa: {} })
}

async function signIn(config: AuthConfig, jar = new Jar()): Promise<{ jar: Jar; response: Response }> {
  const form = { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` }
  const response = await call(config, jar, "/api/auth/callback/credentials", { form })
  return { jar, response }
}

async function contextOf(config: AuthConfig, jar: Jar) {
  const url = new URL(`${ORIGIN}/api/auth/mfa/verify`)
  return createContext(await resolveConfig(config), new Request(url, { method: "POST", headers: { cookie: jar.header() } }), url)
}

/** Runs `act` with a context of `jar`'s cookies, then stores the cookies it set, as a browser would. */
async function step<T>(config: AuthConfig, jar: Jar, act: (context: Awaited<ReturnType<typeof contextOf>>) => Promise<T>): Promise<T> {
  const context = await contextOf(config, jar)
  const result = await act(context)
  for (const cookie of context.setCookies) {
    if (cookie.options.maxAge === 0) jar.cookies.delete(cookie.name)
    else jar.cookies.set(cookie.name, cookie.value)
  }
  return result
}

function copy(jar: Jar): Jar {
  const other = new Jar()
  for (const [name, value] of jar.cookies) other.cookies.set(name, value)
  return other
}

describe("the pending sign-in", () => {
  it("V6.3.3: a user with a TOTP factor gets a pending state, not a session, after the password", async () => {
    const config = await configWithFactor()
    const { jar, response } = await signIn(config)
    expect(location(response).href).toBe(`${ORIGIN}/api/auth/mfa`)
    expect([...setCookies(response).keys()]).toContain("authjs.mfa-pending")
    expect([...jar.cookies.keys()].some((name) => name.startsWith("authjs.session-token"))).toBe(false)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    const pending = await readPending(await contextOf(config, jar))
    expect(pending).toMatchObject({ signedIn: { user: { id: "user-ada" }, methods: ["pwd"] }, target: `${ORIGIN}/dashboard` })
    expect((pending?.expiresAt ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(300)
  })

  it("V6.6.2: is bound to the browser that signed in: the cookie alone opens nothing in another", async () => {
    const config = await configWithFactor()
    const { jar } = await signIn(config)
    const thief = new Jar()
    await csrfToken(config, thief)
    for (const [name, value] of jar.cookies) if (name.includes("mfa-pending")) thief.cookies.set(name, value)
    expect(await readPending(await contextOf(config, thief))).toBeNull()
  })

  it("ends after 5 minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const config = await configWithFactor()
    const { jar } = await signIn(config)
    vi.setSystemTime(Date.now() + 301_000)
    expect(await readPending(await contextOf(config, jar))).toBeNull()
  })

  it(`counts wrong codes on the server: the ${PENDING_ATTEMPTS}th ends it, and a replayed cookie resets nothing (V6.3.1)`, async () => {
    const config = await configWithFactor()
    const { jar } = await signIn(config)
    const first = copy(jar)
    for (let i = 1; i < PENDING_ATTEMPTS; i++) {
      const pending = await step(config, jar, readPending)
      expect(await step(config, jar, (context) => failPending(context, pending ?? never()))).toEqual({ ended: false })
    }
    // The cookie as it was before any wrong code: its row is gone, so it cannot start the count again.
    const replayed = await step(config, first, readPending)
    expect(replayed).not.toBeNull()
    expect(await step(config, first, (context) => failPending(context, replayed ?? never()))).toEqual({ ended: true })
    expect(await step(config, first, (context) => completePending(context, replayed ?? never(), ["otp"]))).toBeNull()
    const last = await step(config, jar, readPending)
    expect(await step(config, jar, (context) => failPending(context, last ?? never()))).toEqual({ ended: true })
    expect(await step(config, jar, readPending)).toBeNull()
    expect(await step(config, copy(first), (context) => completePending(context, last ?? never(), ["otp"]))).toBeNull()
  })

  it("completes once into a session at level 2: a replayed cookie completes nothing more", async () => {
    const config = await configWithFactor()
    const { jar } = await signIn(config)
    const before = copy(jar)
    const pending = (await step(config, jar, readPending)) ?? never()
    expect(await step(config, jar, (context) => completePending(context, pending, ["otp"]))).toEqual({ target: `${ORIGIN}/dashboard` })
    const session = (await (await call(config, jar, "/api/auth/session")).json()) as { assurance: { level: number; methods: string[] } }
    expect(session.assurance).toMatchObject({ level: 2, methods: ["pwd", "otp", "mfa"] })
    expect(await step(config, jar, readPending)).toBeNull()
    const again = (await step(config, before, readPending)) ?? never()
    expect(await step(config, before, (context) => completePending(context, again, ["otp"]))).toBeNull()
    expect([...before.cookies.keys()].some((name) => name.startsWith("authjs.session-token"))).toBe(false)
  })
})

function never(): never {
  throw new Error("expected a pending sign-in")
}
