/**
 * `GET /mfa` (the challenge, or JSON `{ factors }`) and `POST /mfa/verify` (the code that completes
 * a pending sign-in), by the routes' answer conventions, audited as `secondFactor`.
 */
import { describe, expect, it } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { hashBackupCode, newBackupCodes } from "../../src/factors/backup-codes.js"
import { sealFactorSecret } from "../../src/factors/sealed-secret.js"
import { newTotpSecret, totpCode, totpStep } from "../../src/factors/totp.js"
import type { AuditEvent, AuthConfig, MfaOptions } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, SECRET, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"

const USER = "user-ada"

interface Setup {
  config: AuthConfig
  secret: Uint8Array<ArrayBuffer>
  codes: string[]
  audits: AuditEvent[]
}

async function setup(options: { factor?: boolean; mfa?: MfaOptions } = {}): Promise<Setup> {
  const secret = newTotpSecret()
  const codes = newBackupCodes()
  const factors = options.factor === false ? [] : [
    { id: "totp-1", userId: USER, type: "totp" as const, secret: await sealFactorSecret([SECRET], secret, USER), createdAt: new Date(), confirmedAt: new Date() },
    ...(await Promise.all(codes.map(async (code, index) => ({ id: `backup-${index}`, userId: USER, type: "backup" as const, secret: await hashBackupCode([SECRET], code, USER), createdAt: new Date() })))),
  ]
  const adapter = MemoryAdapter({ users: [{ id: USER, name: "Ada", email: "ada@example.com", emailVerified: null }], authFactors: factors })
  const audits: AuditEvent[] = []
  const config = testConfig({ adapter, providers: [passwordProvider()], mfa: options.mfa ?? {}, events: { audit: (event) => void audits.push(event) } })
  return { config, secret, codes, audits }
}

async function pend(config: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` } })
  expect(location(response).pathname).toBe("/api/auth/mfa")
  return jar
}

async function verify(config: AuthConfig, jar: Jar, factor: string, code: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor, code }, headers })
}

function copyJar(jar: Jar): Jar {
  const copy = new Jar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

async function wrongCode(secret: Uint8Array<ArrayBuffer>): Promise<string> {
  const near = await Promise.all([-1, 0, 1].map((offset) => totpCode(secret, totpStep() + offset)))
  return ["000000", "111111", "222222", "333333"].find((code) => !near.includes(code)) ?? ""
}

async function session(config: AuthConfig, jar: Jar): Promise<{ assurance?: { level: number; methods: string[] } } | null> {
  return (await (await call(config, jar, "/api/auth/session")).json()) as { assurance?: { level: number; methods: string[] } } | null
}

describe("GET /mfa", () => {
  it("draws the challenge of the pending sign-in, posting to /mfa/verify, and answers { factors } to a fetch for JSON", async () => {
    const { config } = await setup()
    const jar = await pend(config)
    const page = await call(config, jar, "/api/auth/mfa")
    expect(page.status).toBe(200)
    const body = await page.text()
    expect(body).toContain(`action="${ORIGIN}/api/auth/mfa/verify"`)
    expect(body).toContain('autocomplete="one-time-code"')
    expect(await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["totp", "backup"] })
  })

  it("sends a browser without a pending sign-in to the sign-in page, and a fetch gets 401", async () => {
    const { config } = await setup()
    const jar = new Jar()
    const page = await call(config, jar, "/api/auth/mfa")
    expect(page.status).toBe(303)
    expect(location(page).pathname).toBe("/api/auth/signin")
    const fetched = await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })
    expect(fetched.status).toBe(401)
    expect(await fetched.json()).toMatchObject({ error: "SessionRequired" })
  })

  it("V6.3.3: under mfa.required, holds a user with no factor and sends them to /mfa/setup", async () => {
    const { config } = await setup({ factor: false, mfa: { required: true } })
    const jar = await pend(config)
    expect(await session(config, jar)).toBeNull()
    const page = await call(config, jar, "/api/auth/mfa")
    expect(location(page).href).toBe(`${ORIGIN}/api/auth/mfa/setup`)
    expect(await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: [], setup: `${ORIGIN}/api/auth/mfa/setup` })
  })

  it("answers 404 when mfa is not configured", async () => {
    expect((await call(testConfig(), new Jar(), "/api/auth/mfa")).status).toBe(404)
  })
})

describe("POST /mfa/verify", () => {
  it("completes with a TOTP code: 303 to the callbackUrl, a session at level 2, audited secondFactor then signIn (V16.3.1)", async () => {
    const { config, secret, audits } = await setup()
    const jar = await pend(config)
    const response = await verify(config, jar, "totp", await totpCode(secret, totpStep()))
    expect(response.status).toBe(303)
    expect(location(response).href).toBe(`${ORIGIN}/dashboard`)
    expect((await session(config, jar))?.assurance).toMatchObject({ level: 2, methods: ["pwd", "otp", "mfa"] })
    expect(audits.map((event) => [event.type, event.outcome, event.methods])).toEqual([
      ["signIn", "pending", ["pwd"]],
      ["secondFactor", "success", ["otp"]],
      ["signIn", "success", ["pwd", "otp", "mfa"]],
    ])
  })

  it("completes with a backup code typed loosely, which then works no more (V6.5.1)", async () => {
    const { config, codes } = await setup()
    const code = (codes[0] ?? "").toUpperCase().replace("-", " ")
    const jar = await pend(config)
    expect(location(await verify(config, jar, "backup", code)).href).toBe(`${ORIGIN}/dashboard`)
    expect((await session(config, jar))?.assurance).toMatchObject({ level: 2, methods: ["pwd", "kba", "mfa"] })
    const again = await pend(config)
    expect(location(await verify(config, again, "backup", code)).href).toBe(`${ORIGIN}/api/auth/mfa?factor=backup&error=invalidCode`)
  })

  it("answers by the routes' conventions: a form gets 303 to the page, the fetch client { url, error }, a JSON fetch 400 { error }", async () => {
    const { config, secret, audits } = await setup()
    const jar = await pend(config)
    const wrong = await wrongCode(secret)
    const form = await verify(config, jar, "totp", wrong)
    expect(form.status).toBe(303)
    expect(location(form).href).toBe(`${ORIGIN}/api/auth/mfa?error=invalidCode`)
    const client = await verify(config, jar, "totp", wrong, { "x-auth-return-redirect": "1" })
    expect(await client.json()).toEqual({ url: `${ORIGIN}/api/auth/mfa?error=invalidCode`, error: "invalidCode" })
    const fetched = await verify(config, jar, "totp", wrong, { accept: "application/json" })
    expect(fetched.status).toBe(400)
    expect(await fetched.json()).toEqual({ error: "invalidCode" })
    const done = await verify(config, jar, "totp", await totpCode(secret, totpStep()), { "x-auth-return-redirect": "1" })
    expect(await done.json()).toEqual({ url: `${ORIGIN}/dashboard` })
    const failures = audits.filter((event) => event.type === "secondFactor" && event.outcome === "failure")
    expect(failures).toHaveLength(3)
    for (const event of failures) expect(event).toMatchObject({ reason: "invalidCode", userId: USER })
    expect(JSON.stringify(audits)).not.toContain(wrong)
  })

  it("V6.3.1: ends the pending sign-in at the 5th wrong code; the right code then completes nothing", async () => {
    const { config, secret, audits } = await setup()
    const jar = await pend(config)
    const wrong = await wrongCode(secret)
    for (let i = 1; i < 5; i++) expect(location(await verify(config, jar, "totp", wrong)).pathname).toBe("/api/auth/mfa")
    const fifth = await verify(config, jar, "totp", wrong)
    expect(location(fifth).pathname).toBe("/api/auth/signin")
    const late = await verify(config, jar, "totp", await totpCode(secret, totpStep()), { accept: "application/json" })
    expect(late.status).toBe(401)
    expect(await late.json()).toEqual({ error: "expired" })
    expect(await session(config, jar)).toBeNull()
    expect(audits.at(-1)).toMatchObject({ type: "secondFactor", outcome: "failure", reason: "expired" })
  })

  it("V6.3.1: a replayed pending cookie neither resets its count nor completes twice", async () => {
    const { config, secret, codes } = await setup()
    const jar = await pend(config)
    const original = copyJar(jar)
    const wrong = await wrongCode(secret)
    await verify(config, jar, "totp", wrong)
    await verify(config, jar, "totp", wrong)
    // The cookie from before the wrong codes names a row that is gone: refused, even with a right code.
    const replayed = await verify(config, original, "backup", codes[0] ?? "", { accept: "application/json" })
    expect(await replayed.json()).toEqual({ error: "expired" })
    const beforeSuccess = copyJar(jar)
    expect(location(await verify(config, jar, "backup", codes[1] ?? "")).href).toBe(`${ORIGIN}/dashboard`)
    const twice = await verify(config, beforeSuccess, "backup", codes[2] ?? "", { accept: "application/json" })
    expect(await twice.json()).toEqual({ error: "expired" })
    expect(await session(config, beforeSuccess)).toBeNull()
  })

  it("V6.3.1: charges an attempt before checking its code: ten wrong codes sent at once with one cookie are one guess, not ten", async () => {
    const { config, codes } = await setup()
    const jar = await pend(config)
    const token = await csrfToken(config, jar)
    const guesses = Array.from({ length: 10 }, (_, i) => `zzzzz-zzzz${String(i)}`)
    const answers = await Promise.all(guesses.map((code) => call(config, copyJar(jar), "/api/auth/mfa/verify", { form: { csrfToken: token, factor: "backup", code }, headers: { accept: "application/json" } })))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 400)).toHaveLength(1)
    expect(statuses.filter((status) => status === 401)).toHaveLength(9)
    // Only that one counted toward the user's 10 in 15 minutes: a new sign-in completes.
    const again = await pend(config)
    expect(location(await verify(config, again, "backup", codes[0] ?? "")).href).toBe(`${ORIGIN}/dashboard`)
  })

  it("refuses a missing CSRF token, an unknown factor and an oversized code without a 500", async () => {
    const { config } = await setup()
    const jar = await pend(config)
    const noToken = await call(config, jar, "/api/auth/mfa/verify", { form: { factor: "totp", code: "123456" } })
    expect(noToken.status).toBeLessThan(500)
    expect(await session(config, jar)).toBeNull()
    for (const [factor, code] of [["sms", "123456"], ["totp", "1".repeat(65)]] as const) {
      const refused = await verify(config, jar, factor, code, { accept: "application/json" })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toEqual({ error: "invalidRequest" })
    }
  })
})

describe("mfa.factors at /mfa and /mfa/verify", () => {
  it("V6.3.3: a factor whose kind mfa.factors does not list answers 400 InvalidFactor, a form the page with its error, audited secondFactor invalidRequest", async () => {
    const { config, audits } = await setup({ mfa: { factors: ["totp"] } })
    const jar = await pend(config)
    const fetched = await call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "passkey", credential: "{}" }, headers: { accept: "application/json" } })
    expect(fetched.status).toBe(400)
    expect(await fetched.json()).toEqual({ error: "InvalidFactor" })
    const form = await call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "email", code: "123456" } })
    expect(form.status).toBe(303)
    expect(location(form).href).toBe(`${ORIGIN}/api/auth/mfa?error=InvalidFactor`)
    const page = await (await call(config, jar, location(form).href)).text()
    expect(page).toContain('role="alert"')
    expect(page).not.toContain("That did not work")
    expect(audits.filter((event) => event.type === "secondFactor")).toEqual([
      expect.objectContaining({ outcome: "failure", reason: "invalidRequest", userId: USER }),
      expect.objectContaining({ outcome: "failure", reason: "invalidRequest", userId: USER }),
    ])
    expect(await session(config, jar)).toBeNull()
  })

  it("V6.3.3: the challenge offers only listed factors (backup codes go with \"totp\"), and a factor of a kind not listed gates nobody", async () => {
    const { config } = await setup({ mfa: { factors: ["passkey"], required: true } })
    const jar = await pend(config)
    expect(await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: [], setup: `${ORIGIN}/api/auth/mfa/setup` })
    const { config: optional } = await setup({ mfa: { factors: ["passkey"] } })
    const signedIn = new Jar()
    const response = await call(optional, signedIn, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(optional, signedIn), username: "ada", password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` } })
    expect(location(response).href).toBe(`${ORIGIN}/dashboard`)
    expect((await session(optional, signedIn))?.assurance).toMatchObject({ level: 1, methods: ["pwd"] })
  })
})
