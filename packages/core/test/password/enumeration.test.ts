/**
 * No account enumeration (ASVS 6.3.8): sign-in with an unknown address, sign-up with a taken one
 * and a reset for an unknown one answer exactly as their known counterparts (status, body,
 * cookie names, where they send the browser); the hash runs on both paths, asserted by counting
 * the calls (and by timing, at full cost, in `enumeration-timing.test.ts`); and mails leave the
 * response path.
 */
import { describe, expect, it, vi } from "vitest"
import * as hash from "../../src/password/hash.js"
import { Jar, setCookies } from "../helpers.js"
import { GOOD_PASSWORD, passwordApp, post, signIn, signUpVerified } from "./harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))

vi.mock("../../src/password/hash.js", async (original) => {
  const real = await original<typeof import("../../src/password/hash.js")>()
  return { ...real, hashPassword: vi.fn(real.hashPassword), verifyPassword: vi.fn(real.verifyPassword), spendVerifyCost: vi.fn(real.spendVerifyCost) }
})

/** What a client can compare of two answers. */
async function answer(response: Response) {
  return { status: response.status, location: response.headers.get("location"), body: await response.text(), cookies: [...setCookies(response).keys()].sort() }
}

/** How many password hashes (or verifications, or their stand-in) ran during `work`. */
async function hashesDuring(work: () => Promise<unknown>): Promise<number> {
  const calls = () => vi.mocked(hash.hashPassword).mock.calls.length + vi.mocked(hash.verifyPassword).mock.calls.length + vi.mocked(hash.spendVerifyCost).mock.calls.length
  const before = calls()
  await work()
  return calls() - before
}

describe("enumeration safety", () => {
  it("answers a sign-in with an unknown address exactly as a wrong password, and runs one hash on each path (ASVS 6.3.8)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    let known: Response | undefined
    let unknown: Response | undefined
    expect(await hashesDuring(async () => (known = await signIn(app, new Jar(), "ada@example.com", "a wrong password, long enough")))).toBe(1)
    expect(await hashesDuring(async () => (unknown = await signIn(app, new Jar(), "nobody@example.com", "a wrong password, long enough")))).toBe(1)
    expect(vi.mocked(hash.spendVerifyCost)).toHaveBeenCalledTimes(1)
    expect(await answer(unknown as Response)).toEqual(await answer(known as Response))
  })

  it("answers a sign-up with a taken address exactly as with a new one, each running the hash once, and sends neither answer after a mail (ASVS 6.3.8)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    // A mail that never finishes: an answer that waited for it would never come.
    app.mail = { send: () => new Promise<void>(() => undefined) }
    let fresh: Response | undefined
    let taken: Response | undefined
    expect(await hashesDuring(async () => (fresh = await post(app, new Jar(), "/api/auth/password/signup", { email: "new@example.com", password: GOOD_PASSWORD })))).toBe(1)
    expect(await hashesDuring(async () => (taken = await post(app, new Jar(), "/api/auth/password/signup", { email: "ada@example.com", password: GOOD_PASSWORD })))).toBe(1)
    expect(await answer(taken as Response)).toEqual(await answer(fresh as Response))
  })

  it("answers a reset request for an unknown address exactly as for a known one, before any mail is sent (ASVS 6.3.8)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    app.mail = { send: () => new Promise<void>(() => undefined) }
    const known = await post(app, new Jar(), "/api/auth/password/reset-request", { email: "ada@example.com" })
    const unknown = await post(app, new Jar(), "/api/auth/password/reset-request", { email: "nobody@example.com" })
    expect(await answer(unknown)).toEqual(await answer(known))
  })
})
