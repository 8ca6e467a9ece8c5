/**
 * `POST {basePath}/callback/password`: the stored hash checked under `rateLimit.credentials`'
 * lockout, the second-factor gate on the way, an unknown address refused as a wrong password, and
 * a hash of other parameters upgraded on the sign-in that proves the password.
 */
import { describe, expect, it, vi } from "vitest"
import * as hash from "../../src/password/hash.js"
import { Jar, call, location } from "../helpers.js"
import { GOOD_PASSWORD, passwordApp, signIn, signUpVerified } from "./harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))

vi.mock("../../src/password/hash.js", async (original) => {
  const real = await original<typeof import("../../src/password/hash.js")>()
  return { ...real, hashPassword: vi.fn(real.hashPassword), verifyPassword: vi.fn(real.verifyPassword), spendVerifyCost: vi.fn(real.spendVerifyCost) }
})

describe("password sign-in", () => {
  it("pauses an inbox's password sign-in after rateLimit.credentials' failures, every spelling of it counted as one, the right password refused alike while paused (ASVS 6.3.1, NIST SP 800-63B rev 4 §3.2.2)", async () => {
    const app = passwordApp({}, { rateLimit: { credentials: { failures: 3 } } })
    await signUpVerified(app, "ada@example.com")
    const spellings = ["ada@example.com", "Ada@Example.com", "ada+x@example.com"]
    for (const spelling of spellings) expect(location(await signIn(app, new Jar(), spelling, "not the password at all")).searchParams.get("error")).toBe("CredentialsSignin")
    const paused = await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)
    expect(location(paused).searchParams.get("error")).toBe("CredentialsSignin")
    expect(location(paused).searchParams.get("code")).toBe("credentials")
  })

  it("sends a user with a second factor to its gate, never straight to a session", async () => {
    const app = passwordApp({}, { mfa: { factors: ["totp"], required: true } })
    await signUpVerified(app, "ada@example.com")
    const jar = new Jar()
    const response = await signIn(app, jar, "ada@example.com", GOOD_PASSWORD)
    expect(location(response).pathname).toBe("/api/auth/mfa")
    expect(await (await call(app, jar, "/api/auth/session")).json()).toBeNull()
  })

  it("re-hashes a stored hash the verification says is of other parameters, on the sign-in that proves the password", async () => {
    const app = passwordApp()
    const userId = await signUpVerified(app, "ada@example.com")
    const before = await app.adapter.getPasswordHash(userId)
    vi.mocked(hash.verifyPassword).mockResolvedValueOnce({ ok: true, rehash: true })
    expect((await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).status).toBe(302)
    await vi.waitFor(async () => {
      expect(await app.adapter.getPasswordHash(userId)).not.toBe(before)
    })
  })
})
