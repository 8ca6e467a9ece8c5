/**
 * Re-authentication (issue 38): `{basePath}/reauth` offers the signed-in user's ways, and each
 * proves the same user again on the same session (same record, same devices list, a new
 * `authTime`), never signing anyone in; another user's proof is refused and audited.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { SendVerificationRequestParams } from "../../src/providers/index.js"
import type { AuditEvent, AuthConfig, MfaOptions, SessionAssurance } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, SECRET, call, csrfToken, followEmailLink, passwordProvider, testConfig } from "../helpers.js"
import { sealFactorSecret } from "../../src/factors/sealed-secret.js"
import { newTotpSecret, totpCode, totpStep } from "../../src/factors/totp.js"
import { SoftAuthenticator } from "../webauthn/authenticator.js"
import { options, passkeyProvider, post } from "../webauthn/harness.js"

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0)
const LATER = T0 + 20 * 60_000
const CALLBACK = `${ORIGIN}/settings`

afterEach(() => {
  vi.useRealTimers()
})

function clockAt(at: number): void {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(at)
}

interface SessionInfo {
  id: string
  current: boolean
}

async function assurance(config: AuthConfig, jar: Jar): Promise<SessionAssurance | undefined> {
  const session = (await (await call(config, jar, "/api/auth/session")).json()) as { assurance?: SessionAssurance } | null
  return session?.assurance
}

async function sessions(config: AuthConfig, jar: Jar): Promise<SessionInfo[]> {
  return (await (await call(config, jar, "/api/auth/sessions")).json()) as SessionInfo[]
}

/** ada (user-ada) and bob (user-bob) with passwords, an adapter keeping session records, and the audit trail. */
function passwordSetup() {
  const audit: AuditEvent[] = []
  const config = testConfig({
    adapter: MemoryAdapter(),
    providers: [
      passwordProvider({
        authorize: ({ username, password }) => {
          if (password !== PASSWORD) return null
          return username === "ada" ? { id: "user-ada", email: "ada@example.com" } : username === "bob" ? { id: "user-bob", email: "bob@example.com" } : null
        },
      }),
    ],
    session: { strategy: "jwt" },
    events: { audit: (event) => void audit.push(event) },
  })
  return { config, audit }
}

async function passwordSignIn(config: AuthConfig, username = "ada"): Promise<Jar> {
  const jar = new Jar()
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username, password: PASSWORD } })
  expect(response.status).toBe(302)
  return jar
}

describe("the re-authentication page", () => {
  it("sends a browser without a session to the sign-in page, and a script gets 401 SessionRequired", async () => {
    const { config } = passwordSetup()
    const page = await call(config, new Jar(), `/api/auth/reauth?callbackUrl=${encodeURIComponent(CALLBACK)}`)
    expect(page.status).toBe(302)
    const to = new URL(page.headers.get("location") ?? "")
    expect(to.pathname).toBe("/api/auth/signin")
    expect(to.searchParams.get("callbackUrl")).toBe(CALLBACK)
    const fetched = await call(config, new Jar(), "/api/auth/reauth", { headers: { accept: "application/json" } })
    expect(fetched.status).toBe(401)
    expect(await fetched.json()).toMatchObject({ error: "SessionRequired" })
  })

  it("offers the user's ways as JSON { methods } and as a page whose forms post to /reauth/:id", async () => {
    const { config } = passwordSetup()
    const jar = await passwordSignIn(config)
    const fetched = await call(config, jar, "/api/auth/reauth", { headers: { accept: "application/json" } })
    expect(await fetched.json()).toEqual({ methods: [{ type: "credentials", provider: "credentials", name: "Password" }] })
    const page = await call(config, jar, `/api/auth/reauth?callbackUrl=${encodeURIComponent(CALLBACK)}`, { headers: { accept: "text/html" } })
    const body = await page.text()
    expect(page.status).toBe(200)
    expect(body).toContain(`action="${ORIGIN}/api/auth/reauth/credentials"`)
    expect(body).toContain('autocomplete="current-password"')
    expect(body).toContain(`name="callbackUrl" value="${CALLBACK}"`)
  })

  it("says there is no way here and links to a fresh sign-in when the user has none", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: "user-eve", email: "eve@example.com", emailVerified: null, name: null, image: null })
    const config = testConfig({ adapter, session: { strategy: "database" } })
    const jar = new Jar()
    const expires = new Date(Date.now() + 3_600_000)
    await adapter.createSession({ sessionToken: "eve-token", userId: user.id, expires })
    await adapter.createSessionRecord({ id: "record-eve", userId: user.id, createdAt: new Date(), lastSeenAt: new Date(), expires, sessionToken: "eve-token" })
    jar.cookies.set("authjs.session-token", "eve-token")
    const page = await call(config, jar, "/api/auth/reauth", { headers: { accept: "text/html" } })
    const body = await page.text()
    expect(body).toContain("There is no way to confirm it is you on this page")
    expect(body).toContain(`href="${ORIGIN}/api/auth/signin?callbackUrl=`)
    expect(await (await call(config, jar, "/api/auth/reauth", { headers: { accept: "application/json" } })).json()).toMatchObject({ methods: [] })
  })
})

describe("re-authentication with credentials", () => {
  it("V7.5.1/V7.5.3: a stale session re-authenticated by authorize keeps its record and devices list, with a new authTime", async () => {
    const { config, audit } = passwordSetup()
    clockAt(T0)
    const jar = await passwordSignIn(config)
    await passwordSignIn(config) // another device of ada's
    const before = await sessions(config, jar)
    clockAt(LATER)
    const response = await call(config, jar, "/api/auth/reauth/credentials", { form: { csrfToken: await csrfToken(config, jar), callbackUrl: CALLBACK, username: "ada", password: PASSWORD } })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(CALLBACK)
    expect(await assurance(config, jar)).toMatchObject({ authTime: LATER / 1000, signedInAt: T0 / 1000, methods: ["pwd"] })
    const after = await sessions(config, jar)
    expect(after.map((session) => session.id).sort()).toEqual(before.map((session) => session.id).sort())
    expect(after.find((session) => session.current)?.id).toBe(before.find((session) => session.current)?.id)
    expect(audit.at(-1)).toMatchObject({ type: "reauth", outcome: "success", userId: "user-ada", provider: "credentials", methods: ["pwd"] })
  })

  it("V7.5.3: authorize answering another user is refused as wrongUser, audited, and the session stays as it was", async () => {
    const { config, audit } = passwordSetup()
    clockAt(T0)
    const jar = await passwordSignIn(config)
    const before = await sessions(config, jar)
    clockAt(LATER)
    const response = await call(config, jar, "/api/auth/reauth/credentials", { form: { csrfToken: await csrfToken(config, jar), callbackUrl: CALLBACK, username: "bob", password: PASSWORD } })
    expect(response.status).toBe(303)
    const to = new URL(response.headers.get("location") ?? "")
    expect(to.pathname).toBe("/api/auth/reauth")
    expect(to.searchParams.get("error")).toBe("wrongUser")
    expect(await assurance(config, jar)).toMatchObject({ authTime: T0 / 1000 })
    expect(await sessions(config, jar)).toEqual(before.map((session) => ({ ...session, lastSeenAt: expect.any(String) as string })))
    expect(audit.at(-1)).toMatchObject({ type: "reauth", outcome: "failure", reason: "wrongUser", userId: "user-ada" })
  })

  it("a wrong password goes back to the page with CredentialsSignin and changes nothing", async () => {
    const { config } = passwordSetup()
    clockAt(T0)
    const jar = await passwordSignIn(config)
    clockAt(LATER)
    const response = await call(config, jar, "/api/auth/reauth/credentials", { form: { csrfToken: await csrfToken(config, jar), callbackUrl: CALLBACK, username: "ada", password: "wrong" } })
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("CredentialsSignin")
    expect(await assurance(config, jar)).toMatchObject({ authTime: T0 / 1000 })
  })
})

describe("re-authentication with a passkey", () => {
  function passkeyUser() {
    const adapter = MemoryAdapter()
    const audit: AuditEvent[] = []
    const config = testConfig({ adapter, providers: [passkeyProvider() as never], events: { audit: (event) => void audit.push(event) } })
    const signUp = async (email: string) => {
      const device = new SoftAuthenticator(ORIGIN)
      const jar = new Jar()
      const { options: creation } = await options(config, jar, `?action=register&email=${encodeURIComponent(email)}`)
      expect((await post(config, jar, "register", await device.create(creation))).status).toBe(302)
      return { device, jar }
    }
    return { adapter, config, audit, signUp }
  }

  async function reauthOptions(config: AuthConfig, jar: Jar) {
    const response = await call(config, jar, "/api/auth/reauth/passkey", { headers: { accept: "application/json" } })
    expect(response.status).toBe(200)
    return ((await response.json()) as { options: { challenge: string; allowCredentials: { id: string }[] } }).options
  }

  it("V7.5.1: the user's own passkey (allowCredentials) with user verification raises the same session to level 2 (hwk, user)", async () => {
    const ctx = passkeyUser()
    clockAt(T0)
    const ada = await ctx.signUp("ada@example.com")
    const before = await sessions(ctx.config, ada.jar)
    clockAt(LATER)
    const request = await reauthOptions(ctx.config, ada.jar)
    expect(request.allowCredentials.map((credential) => credential.id)).toEqual([Buffer.from(ada.device.passkeys[0]?.id ?? []).toString("base64url")])
    const response = await post(ctx.config, ada.jar, "authenticate", await ada.device.get(request), { callbackUrl: CALLBACK }, "passkey", { "x-auth-return-redirect": "1" })
    expect(await response.json()).toEqual({ url: CALLBACK })
    expect(await assurance(ctx.config, ada.jar)).toMatchObject({ level: 2, authTime: LATER / 1000, signedInAt: T0 / 1000 })
    expect((await sessions(ctx.config, ada.jar)).map((session) => session.id)).toEqual(before.map((session) => session.id))
    expect(ctx.audit.at(-1)).toMatchObject({ type: "reauth", outcome: "success", methods: ["hwk", "user"] })
  })

  it("V7.5.3: another user's passkey answering the challenge is refused as wrongUser and the session stays as it was", async () => {
    const ctx = passkeyUser()
    clockAt(T0)
    const ada = await ctx.signUp("ada@example.com")
    const mallory = await ctx.signUp("mallory@example.com")
    clockAt(LATER)
    const request = await reauthOptions(ctx.config, ada.jar)
    const response = await post(ctx.config, ada.jar, "authenticate", await mallory.device.get(request), { callbackUrl: CALLBACK }, "passkey", { "x-auth-return-redirect": "1" })
    expect(await response.json()).toMatchObject({ error: "wrongUser" })
    expect(await assurance(ctx.config, ada.jar)).toMatchObject({ authTime: T0 / 1000 })
    expect(ctx.audit.at(-1)).toMatchObject({ type: "reauth", outcome: "failure", reason: "wrongUser" })
  })
})

describe("re-authentication with an email link", () => {
  function emailSetup() {
    const sent: SendVerificationRequestParams[] = []
    const audit: AuditEvent[] = []
    const config = testConfig({
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      providers: [{ id: "email", name: "Email", type: "email", from: "no-reply@app.example", sendVerificationRequest: (params) => void sent.push(params) }],
      events: { audit: (event) => void audit.push(event) },
    })
    return { config, sent, audit }
  }

  const followLink = followEmailLink

  /** Ada, signed in at T0 by a link of her own. */
  async function signedInByLink(ctx: ReturnType<typeof emailSetup>): Promise<Jar> {
    clockAt(T0)
    const jar = new Jar()
    await call(ctx.config, jar, "/api/auth/signin/email", { form: { csrfToken: await csrfToken(ctx.config, jar), email: "ada@example.com", callbackUrl: "/" } })
    await followLink(ctx.config, jar, ctx.sent[0]?.url ?? "")
    return jar
  }

  it("V7.5.1: a single-use link to the user's own verified address raises the same session; the link works once", async () => {
    const ctx = emailSetup()
    const jar = await signedInByLink(ctx)
    const before = await sessions(ctx.config, jar)
    clockAt(LATER)
    const methods: unknown = await (await call(ctx.config, jar, "/api/auth/reauth", { headers: { accept: "application/json" } })).json()
    expect(methods).toEqual({ methods: [{ type: "email", provider: "email", name: "Email" }] })
    // The form names no address: the link goes to the signed-in user's own.
    await call(ctx.config, jar, "/api/auth/reauth/email", { form: { csrfToken: await csrfToken(ctx.config, jar), callbackUrl: CALLBACK, email: "mallory@example.com" } })
    const link = ctx.sent[1]
    expect(link?.identifier).toBe("ada@example.com")
    expect(new URL(link?.url ?? "").pathname).toBe("/api/auth/reauth/email")
    const response = await followLink(ctx.config, jar, link?.url ?? "")
    expect(response.headers.get("location")).toBe(CALLBACK)
    expect(await assurance(ctx.config, jar)).toMatchObject({ authTime: LATER / 1000, signedInAt: T0 / 1000 })
    expect((await sessions(ctx.config, jar)).map((session) => session.id)).toEqual(before.map((session) => session.id))
    expect(ctx.audit.at(-1)).toMatchObject({ type: "reauth", outcome: "success", provider: "email", methods: ["email"] })
    const again = await followLink(ctx.config, jar, link?.url ?? "")
    expect(new URL(again.headers.get("location") ?? "").searchParams.get("error")).toBe("Verification")
  })

  it("V7.5.3: a link to another address, followed in this session, is refused as wrongUser", async () => {
    const ctx = emailSetup()
    const jar = await signedInByLink(ctx)
    // Mallory's own sign-in link, taken to Ada's re-authentication route.
    const other = new Jar()
    await call(ctx.config, other, "/api/auth/signin/email", { form: { csrfToken: await csrfToken(ctx.config, other), email: "mallory@example.com", callbackUrl: "/" } })
    const stolen = new URL(ctx.sent[1]?.url ?? "")
    stolen.pathname = "/api/auth/reauth/email"
    clockAt(LATER)
    const response = await followLink(ctx.config, jar, stolen.href)
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("wrongUser")
    expect(await assurance(ctx.config, jar)).toMatchObject({ authTime: T0 / 1000 })
    expect(ctx.audit.at(-1)).toMatchObject({ type: "reauth", outcome: "failure", reason: "wrongUser" })
  })
})

describe("re-authentication with an authenticator app's code (through the second factors' check)", () => {
  /** Ada with a confirmed TOTP factor and a database session from T0 (signed in with a password and a code). */
  async function totpUser(mfa: MfaOptions = {}) {
    const secret = newTotpSecret()
    const audit: AuditEvent[] = []
    const adapter = MemoryAdapter({
      users: [{ id: "user-ada", email: "ada@example.com", emailVerified: null }],
      authFactors: [{ id: "totp-1", userId: "user-ada", type: "totp", secret: await sealFactorSecret([SECRET], secret, "user-ada"), createdAt: new Date(T0), confirmedAt: new Date(T0) }],
    })
    const config = testConfig({ adapter, mfa, session: { strategy: "database" }, events: { audit: (event) => void audit.push(event) } })
    const expires = new Date(T0 + 86_400_000)
    await adapter.createSession({ sessionToken: "ada-token", userId: "user-ada", expires })
    await adapter.createSessionRecord({ id: "record-ada", userId: "user-ada", createdAt: new Date(T0), lastSeenAt: new Date(T0), expires, sessionToken: "ada-token", signedInAt: new Date(T0), authTime: new Date(T0), authMethods: ["pwd"] })
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", "ada-token")
    return { config, jar, audit, code: () => totpCode(secret, totpStep()) }
  }

  async function postCode(config: AuthConfig, jar: Jar, code: string): Promise<Response> {
    return call(config, jar, "/api/auth/reauth/totp", { form: { csrfToken: await csrfToken(config, jar), callbackUrl: CALLBACK, code } })
  }

  it("V7.5.1: a right code raises the same session to level 2 with a new authTime; the page offers it", async () => {
    clockAt(LATER)
    const ctx = await totpUser()
    expect(await (await call(ctx.config, ctx.jar, "/api/auth/reauth", { headers: { accept: "application/json" } })).json()).toEqual({ methods: [{ type: "totp" }] })
    const page = await (await call(ctx.config, ctx.jar, "/api/auth/reauth", { headers: { accept: "text/html" } })).text()
    expect(page).toContain(`action="${ORIGIN}/api/auth/reauth/totp"`)
    expect(page).toContain('autocomplete="one-time-code"')
    const response = await postCode(ctx.config, ctx.jar, await ctx.code())
    expect(response.headers.get("location")).toBe(CALLBACK)
    expect(await assurance(ctx.config, ctx.jar)).toMatchObject({ level: 2, authTime: LATER / 1000, signedInAt: T0 / 1000, methods: ["otp", "mfa"] })
    expect((await sessions(ctx.config, ctx.jar)).map((session) => session.id)).toEqual(["record-ada"])
    expect(ctx.audit.at(-1)).toMatchObject({ type: "reauth", outcome: "success", provider: "totp", methods: ["otp", "mfa"] })
  })

  it("V6.3.3: an app whose mfa.factors leaves out totp neither offers the authenticator app nor takes its right code at POST /reauth/totp", async () => {
    clockAt(LATER)
    const ctx = await totpUser({ factors: ["passkey"] })
    const listed = (await (await call(ctx.config, ctx.jar, "/api/auth/reauth", { headers: { accept: "application/json" } })).json()) as { methods: unknown[] }
    expect(listed.methods).toEqual([])
    const page = await (await call(ctx.config, ctx.jar, "/api/auth/reauth", { headers: { accept: "text/html" } })).text()
    expect(page).not.toContain("/api/auth/reauth/totp")
    const response = await postCode(ctx.config, ctx.jar, await ctx.code())
    expect(response.status).toBe(404)
    expect(await assurance(ctx.config, ctx.jar)).toMatchObject({ level: 1, authTime: T0 / 1000 })
    expect(ctx.audit.filter((event) => event.outcome === "success")).toEqual([])
  })

  it("RFC 6238 §5.2: a wrong code and a code used already are refused, counted, and the session stays as it was", async () => {
    clockAt(LATER)
    const ctx = await totpUser()
    const code = await ctx.code()
    const wrong = await postCode(ctx.config, ctx.jar, code === "000000" ? "111111" : "000000")
    expect(new URL(wrong.headers.get("location") ?? "").searchParams.get("error")).toBe("invalidCode")
    expect(await assurance(ctx.config, ctx.jar)).toMatchObject({ level: 1, authTime: T0 / 1000 })
    await postCode(ctx.config, ctx.jar, code)
    const replayed = await postCode(ctx.config, ctx.jar, code)
    expect(new URL(replayed.headers.get("location") ?? "").searchParams.get("error")).toBe("replayed")
    expect(ctx.audit.map((event) => [event.type, event.outcome, event.reason].filter(Boolean).join(" "))).toEqual(["reauth failure invalidCode", "reauth success", "reauth failure replayed"])
  })
})
