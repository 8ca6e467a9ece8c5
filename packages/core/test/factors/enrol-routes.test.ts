/**
 * Enrolling and removing second factors through the routes (`/mfa/setup`, `/mfa/totp/setup`,
 * `/mfa/totp/confirm`, `/mfa/backup-codes`, `/mfa/remove`) on the memory adapter: who may (a
 * recent session, level 2 once enrolled), what is stored (the TOTP secret sealed, backup codes
 * keyed-hashed), how two racing enrolments end, and the notices mailed.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AdapterAuthFactor } from "../../src/adapters.js"
import { afterEach, describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import { matchBackupCode } from "../../src/factors/backup-codes.js"
import { checkTotp } from "../../src/factors/check-code.js"
import { confirmTotp, listFactors, startTotp } from "../../src/factors/enrolment.js"
import { base32Decode, totpCode, totpStep } from "../../src/factors/totp.js"
import { createContext } from "../../src/http/context.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, SECRET, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"

type Enrolling = AuthConfig & { adapter: ReturnType<typeof MemoryAdapter>; mails: MailMessage[] }

function enrolling(overrides: Partial<AuthConfig> = {}): Enrolling {
  const mails: MailMessage[] = []
  const adapter = MemoryAdapter()
  return {
    ...testConfig({
      adapter,
      session: { strategy: "jwt", revocationCheckInterval: 0 },
      providers: [passwordProvider()],
      mfa: { factors: ["totp"] },
      mail: { send: (message) => void mails.push(message) },
      ...overrides,
    }),
    adapter,
    mails,
  }
}

const JSON_HEADERS = { accept: "application/json" }

async function signIn(config: AuthConfig, jar = new Jar()): Promise<Jar> {
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD, csrfToken: await csrfToken(config, jar), callbackUrl: "/after" } })
  expect(location(response).pathname).toBe("/after")
  return jar
}

/** Signs in with the password where the user owes a second factor: the sign-in waits, with no session. */
async function signInPending(config: AuthConfig, jar = new Jar()): Promise<Jar> {
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD, csrfToken: await csrfToken(config, jar), callbackUrl: "/after" } })
  expect(location(response).pathname).toBe("/api/auth/mfa")
  expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  return jar
}

async function post(config: AuthConfig, jar: Jar, sub: string, fields: Record<string, string> = {}, headers: Record<string, string> = JSON_HEADERS): Promise<Response> {
  return call(config, jar, `/api/auth/mfa/${sub}`, { form: { csrfToken: await csrfToken(config, jar), ...fields }, headers })
}

/** The code an authenticator app shows now for the base32 `secret`. */
async function codeFor(secret: string, offset = 0): Promise<string> {
  return totpCode(base32Decode(secret) ?? new Uint8Array(), totpStep() + offset)
}

/** Sets up and confirms an authenticator for the jar's user: its secret and backup codes. */
async function enrol(config: AuthConfig, jar: Jar): Promise<{ secret: string; backupCodes: string[] }> {
  const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
  const confirmed = await post(config, jar, "totp/confirm", { code: await codeFor(secret) })
  expect(confirmed.status).toBe(200)
  const { backupCodes } = (await confirmed.json()) as { backupCodes: string[] }
  return { secret, backupCodes }
}

async function factorsOf(config: Enrolling): Promise<AdapterAuthFactor[]> {
  return config.adapter.listAuthFactors("user-ada")
}

afterEach(() => {
  vi.useRealTimers()
})

describe("setting up an authenticator app (RFC 6238, ASVS V6.5.x)", () => {
  it("answers { secret, uri } and stores only the secret sealed, unconfirmed", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const response = await post(config, jar, "totp/setup")
    expect(response.status).toBe(200)
    const { secret, uri } = (await response.json()) as { secret: string; uri: string }
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(uri).toBe(`otpauth://totp/localhost:ada%40example.com?secret=${secret}&issuer=localhost`)
    const [factor] = await factorsOf(config)
    expect(factor).toMatchObject({ type: "totp", userId: "user-ada", confirmedAt: null })
    expect(factor?.secret).not.toContain(secret)
    expect(factor?.secret.toLowerCase()).not.toContain(secret.toLowerCase())
  })

  it("draws the QR code and the confirm form for a form post, and the set-up page with its button", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const page = await call(config, jar, "/api/auth/mfa/setup")
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain(`action="${ORIGIN}/api/auth/mfa/totp/setup"`)
    expect(text).toContain('name="csrfToken"')
    const setup = await post(config, jar, "totp/setup", {}, {})
    expect(setup.headers.get("content-type")).toContain("text/html")
    const html = await setup.text()
    expect(html).toContain("<svg")
    expect(html).toContain(`action="${ORIGIN}/api/auth/mfa/totp/confirm"`)
  })

  it("answers 409 FactorExists when an authenticator is confirmed already, and keeps it", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    await enrol(config, jar)
    const again = await post(config, jar, "totp/setup")
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: "FactorExists" })
    expect((await factorsOf(config)).filter((factor) => factor.type === "totp")).toHaveLength(1)
  })

  it("is refused without a session (401 SessionRequired) and after reauthAge (403 ReauthRequired): ASVS V7.5.1", async () => {
    const config = enrolling()
    const none = await post(config, new Jar(), "totp/setup")
    expect(none.status).toBe(401)
    expect(await none.json()).toMatchObject({ error: "SessionRequired" })
    const jar = await signIn(config)
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 })
    const stale = await post(config, jar, "totp/setup")
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ error: "ReauthRequired", url: expect.stringContaining("/api/auth/reauth?callbackUrl=") as string })
    expect(await factorsOf(config)).toEqual([])
  })

  it("refuses a forged CSRF token on every POST and stores nothing", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    for (const sub of ["totp/setup", "totp/confirm", "backup-codes", "remove"]) {
      const response = await call(config, jar, `/api/auth/mfa/${sub}`, { form: { csrfToken: "forged", code: "123456", factor: "totp" }, headers: JSON_HEADERS })
      expect(response.status, sub).toBe(403)
      expect(await response.json()).toMatchObject({ error: "MissingCSRF" })
    }
    expect(await factorsOf(config)).toEqual([])
  })

  it("keeps a hostile callbackUrl off the page (the app's origin instead) and answers 405 to a GET of a POST route", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const page = await (await call(config, jar, "/api/auth/mfa/setup?callbackUrl=https%3A%2F%2Fevil.example%2F")).text()
    expect(page).not.toContain("evil.example")
    expect(page).toContain(`<a href="${ORIGIN}">Back</a>`)
    for (const sub of ["totp/setup", "totp/confirm", "backup-codes", "remove"]) expect((await call(config, jar, `/api/auth/mfa/${sub}`)).status, sub).toBe(405)
    expect((await post(config, jar, "setup")).status).toBe(405)
  })

  it("answers as an unknown route when mfa is not configured", async () => {
    const config = enrolling({ mfa: undefined })
    const jar = await signIn(config)
    expect((await post(config, jar, "totp/setup")).status).toBe(404)
    expect((await call(config, jar, "/api/auth/mfa/setup")).status).toBe(404)
  })
})

describe("confirming the authenticator (RFC 6238 §5.2, ASVS V6.5.2)", () => {
  it("answers ten backup codes once, stores them keyed-hashed, and counts the confirming step as used", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    const code = await codeFor(secret)
    const confirmed = await post(config, jar, "totp/confirm", { code })
    const { backupCodes } = (await confirmed.json()) as { backupCodes: string[] }
    expect(backupCodes).toHaveLength(10)
    const factors = await factorsOf(config)
    const totp = factors.filter((factor) => factor.type === "totp")
    expect(totp).toHaveLength(1)
    expect(totp[0]?.confirmedAt).toBeInstanceOf(Date)
    const hashes = factors.filter((factor) => factor.type === "backup").map((factor) => factor.secret)
    expect(hashes).toHaveLength(10)
    const stored = JSON.stringify(factors).toLowerCase()
    for (const backupCode of backupCodes) {
      expect(stored).not.toContain(backupCode)
      expect(stored).not.toContain(backupCode.replace("-", ""))
      expect(await matchBackupCode([SECRET], backupCode, hashes, "user-ada")).toBeGreaterThanOrEqual(0)
    }
    // The code that confirmed is spent: a sign-in cannot use it again.
    const context = createContext(await resolveConfig(config), new Request(`${ORIGIN}/api/auth/mfa/verify`), new URL(`${ORIGIN}/api/auth/mfa/verify`))
    expect(await checkTotp(context, "user-ada", code)).toEqual({ ok: false, reason: "replayed" })
  })

  it("raises the session to level 2 with otp, so backup codes are made anew at once", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    await enrol(config, jar)
    const session = (await (await call(config, jar, "/api/auth/session")).json()) as { assurance: { level: number; methods: string[] } }
    expect(session.assurance).toMatchObject({ level: 2, methods: expect.arrayContaining(["pwd", "otp", "mfa"]) as string[] })
    expect((await post(config, jar, "backup-codes")).status).toBe(200)
  })

  it("refuses a wrong code (invalidCode) and shows the same QR again to a form, confirming nothing", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    const wrong = String((Number(await codeFor(secret)) + 1) % 1_000_000).padStart(6, "0")
    const refused = await post(config, jar, "totp/confirm", { code: wrong })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ error: "invalidCode" })
    const page = await post(config, jar, "totp/confirm", { code: "000000x" }, {})
    expect(page.status).toBe(400)
    const html = await page.text()
    expect(html).toContain('role="alert"')
    expect(html).toContain(secret.slice(0, 4))
    expect((await factorsOf(config)).every((factor) => factor.confirmedAt === null)).toBe(true)
  })

  it("of two set-ups and two confirmations racing, exactly one authenticator is confirmed, and the winner's backup codes are the ones stored", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const setups = (await Promise.all([post(config, jar, "totp/setup"), post(config, jar, "totp/setup")])).map((response) => response.json() as Promise<{ secret: string }>)
    const secrets = await Promise.all(setups)
    // Each confirmation with its own set-up's code, and the survivor's next code too, all at once.
    const [first, second] = secrets.map(({ secret }) => secret) as [string, string]
    const answers = await Promise.all([
      post(config, jar, "totp/confirm", { code: await codeFor(first) }),
      post(config, jar, "totp/confirm", { code: await codeFor(second) }),
      post(config, jar, "totp/confirm", { code: await codeFor(first, 1) }),
      post(config, jar, "totp/confirm", { code: await codeFor(second, 1) }),
    ])
    const won = answers.filter((response) => response.status === 200)
    expect(won).toHaveLength(1)
    expect(answers.filter((response) => response.status >= 400)).toHaveLength(3)
    const { backupCodes } = (await won[0]?.json()) as { backupCodes: string[] }
    const factors = await factorsOf(config)
    expect(factors.filter((factor) => factor.type === "totp")).toHaveLength(1)
    expect(factors.filter((factor) => factor.type === "totp" && factor.confirmedAt instanceof Date)).toHaveLength(1)
    const hashes = factors.filter((factor) => factor.type === "backup").map((factor) => factor.secret)
    expect(hashes).toHaveLength(10)
    for (const backupCode of backupCodes) expect(await matchBackupCode([SECRET], backupCode, hashes, "user-ada")).toBeGreaterThanOrEqual(0)
  })

  it("of two confirmations of one checked set-up racing in the store, exactly one creates the confirmed factor", async () => {
    const config = enrolling()
    const context = createContext(await resolveConfig(config), new Request(`${ORIGIN}/api/auth/mfa/totp/confirm`), new URL(`${ORIGIN}/api/auth/mfa/totp/confirm`))
    await startTotp(context, "user-ada", "ada@example.com")
    const [factor] = await listFactors(context, "user-ada")
    const results = await Promise.all([confirmTotp(context, "user-ada", factor as AdapterAuthFactor), confirmTotp(context, "user-ada", factor as AdapterAuthFactor)])
    expect(results.sort()).toEqual([false, true])
    expect((await factorsOf(config)).filter((each) => each.type === "totp" && each.confirmedAt instanceof Date)).toHaveLength(1)
  })
})

describe("backup codes made anew and factors removed (ASVS V6.5.x, V7.5.1)", () => {
  it("needs level 2 once the user has a factor: a session that signed in before enrolling is sent to re-authenticate", async () => {
    const config = enrolling()
    const older = await signIn(config)
    const jar = await signIn(config)
    await enrol(config, jar)
    for (const sub of ["backup-codes", "remove"]) {
      const refused = await post(config, older, sub, { factor: "totp" })
      expect(refused.status, sub).toBe(403)
      expect(await refused.json()).toMatchObject({ error: "ReauthRequired" })
    }
    expect((await factorsOf(config)).filter((factor) => factor.confirmedAt instanceof Date)).toHaveLength(11)
  })

  it("replaces all ten backup codes: the old ones stop working", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const { backupCodes: old } = await enrol(config, jar)
    const { backupCodes } = (await (await post(config, jar, "backup-codes")).json()) as { backupCodes: string[] }
    expect(backupCodes).toHaveLength(10)
    const hashes = (await factorsOf(config)).filter((factor) => factor.type === "backup").map((factor) => factor.secret)
    expect(hashes).toHaveLength(10)
    for (const backupCode of old) expect(await matchBackupCode([SECRET], backupCode, hashes, "user-ada")).toBe(-1)
    for (const backupCode of backupCodes) expect(await matchBackupCode([SECRET], backupCode, hashes, "user-ada")).toBeGreaterThanOrEqual(0)
  })

  it("refuses new backup codes without an authenticator (409 NoFactor)", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const refused = await post(config, jar, "backup-codes")
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({ error: "NoFactor" })
    expect(await factorsOf(config)).toEqual([])
  })

  it("removes the backup codes alone, or the authenticator with them; a form is sent on with 303", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    await enrol(config, jar)
    expect(await (await post(config, jar, "remove", { factor: "backup" })).json()).toEqual({ url: `${ORIGIN}/` })
    expect((await factorsOf(config)).map((factor) => factor.type)).toEqual(["totp"])
    const removed = await post(config, jar, "remove", { factor: "totp", callbackUrl: "/settings" }, {})
    expect(removed.status).toBe(303)
    expect(location(removed).href).toBe(`${ORIGIN}/settings`)
    expect(await factorsOf(config)).toEqual([])
    expect((await post(config, jar, "remove", { factor: "passkey" })).status).toBe(400)
  })

  it("refuses to remove the last factor of a user mfa.required names (409 LastFactor)", async () => {
    const config = enrolling({ mfa: { factors: ["totp"], required: (user) => user.email === "ada@example.com" } })
    const jar = await signInPending(config)
    await enrol(config, jar)
    const refused = await post(config, jar, "remove", { factor: "totp" })
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({ error: "LastFactor" })
    expect((await post(config, jar, "remove", { factor: "backup" })).status).toBe(200)
    expect((await factorsOf(config)).map((factor) => factor.type)).toEqual(["totp"])
  })

  it("mails the user a notice when a factor is added, backup codes are made anew, and a factor is removed, with no code in it", async () => {
    const config = enrolling()
    const jar = await signIn(config)
    const { backupCodes } = await enrol(config, jar)
    await post(config, jar, "backup-codes")
    await post(config, jar, "remove", { factor: "totp" })
    expect(config.mails.map(({ to, kind, subject }) => ({ to, kind, subject }))).toEqual([
      { to: "ada@example.com", kind: "notice", subject: "Two-step sign-in is on" },
      { to: "ada@example.com", kind: "notice", subject: "New backup codes were made" },
      { to: "ada@example.com", kind: "notice", subject: "Two-step sign-in is off" },
    ])
    const mailed = JSON.stringify(config.mails)
    for (const backupCode of backupCodes) expect(mailed).not.toContain(backupCode)
  })
})

describe("under mfa.required, a user without a factor enrols from the waiting sign-in (ASVS V6.3.3)", () => {
  it("sets up and confirms an authenticator with no session; confirming completes the sign-in at level 2, to its callbackUrl", async () => {
    const config = enrolling({ mfa: { factors: ["totp"], required: true } })
    const jar = await signInPending(config)
    const page = await call(config, jar, "/api/auth/mfa/setup")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Your account needs a second step to sign in.")
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    const confirmed = await post(config, jar, "totp/confirm", { code: await codeFor(secret) })
    expect(confirmed.status).toBe(200)
    const answer = (await confirmed.json()) as { backupCodes: string[]; url: string }
    expect(answer.backupCodes).toHaveLength(10)
    expect(answer.url).toBe(`${ORIGIN}/after`)
    const session = (await (await call(config, jar, "/api/auth/session")).json()) as { user: { id: string }; assurance: { level: number; methods: string[] } }
    expect(session.user.id).toBe("user-ada")
    expect(session.assurance).toMatchObject({ level: 2, methods: ["pwd", "otp", "mfa"] })
  })

  it("charges the waiting sign-in for each first code: the fifth wrong one ends it, and the right code then finds no sign-in to complete", async () => {
    const config = enrolling({ mfa: { factors: ["totp"], required: true } })
    const jar = await signInPending(config)
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    const wrong = String((Number(await codeFor(secret)) + 1) % 1_000_000).padStart(6, "0")
    const answers = []
    for (let attempt = 0; attempt < 5; attempt++) answers.push((await post(config, jar, "totp/confirm", { code: wrong }, { "x-auth-return-redirect": "1" })).json())
    const last = (await answers.at(-1)) as { url: string; error: string }
    expect(last.error).toBe("invalidCode")
    expect(new URL(last.url).pathname).toBe("/api/auth/signin")
    const late = await post(config, jar, "totp/confirm", { code: await codeFor(secret) })
    expect(late.status).toBe(401)
    expect((await factorsOf(config)).some((factor) => factor.confirmedAt instanceof Date)).toBe(false)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  })

  it("lets a waiting sign-in do nothing else: not remove or renew codes, not enrol a user who has a factor or whom mfa.required does not name", async () => {
    const config = enrolling({ mfa: { factors: ["totp"], required: (user) => user.name === "Ada Lovelace" } })
    const jar = await signInPending(config)
    for (const sub of ["backup-codes", "remove"]) expect((await post(config, jar, sub, { factor: "backup" })).status, sub).toBe(401)
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    await post(config, jar, "totp/confirm", { code: await codeFor(secret) })
    // Enrolled, ada's next sign-in waits for the code, and cannot set up another authenticator instead.
    const again = await signInPending(config, new Jar())
    const refused = await post(config, again, "totp/setup")
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: "SessionRequired" })
    // Nor can a waiting sign-in of a user mfa.required does not name (ada, once her factor is removed, is not named here).
    const optional = enrolling({ mfa: { factors: ["totp"], required: false } })
    await optional.adapter.createAuthFactor({ id: "totp-x", userId: "user-ada", type: "backup", secret: "x", createdAt: new Date(), confirmedAt: new Date() })
    const waiting = await signInPending(optional)
    expect((await post(optional, waiting, "totp/setup")).status).toBe(401)
  })
})
