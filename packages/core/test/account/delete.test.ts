/**
 * Account deletion (issue 38 item 7): `POST /account/delete` behind a recent authentication (level
 * 2 with a confirmed second factor) deletes the user and everything core keeps of them, ends every
 * session, clears the cookie, and the page signals the deleted passkeys to the browser.
 */
import { createHash } from "node:crypto"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { StrictAdapter } from "../../src/adapters.js"
import { deleteAccount } from "../../src/index.js"
import type { AuditEvent, AuthConfig, MailMessage } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, call, clockAt, csrfToken, followEmailLink, passwordProvider, sessionOf, setCookies, testConfig } from "../helpers.js"

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0)
const JSON_ACCEPT = { accept: "application/json" }
const CREDENTIAL = "Y3JlZGVudGlhbC1vZi1hZGE"

afterEach(() => {
  vi.useRealTimers()
})

/** ada, stored with an OAuth account, a passkey, a backup code, and a sign-in link outstanding; mails, audit and revocations collected. */
async function setup(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: new Date(), name: "Ada", image: null })
  await adapter.linkAccount({ userId: ada.id, provider: "acme", providerAccountId: "ada-at-acme", type: "oauth" })
  await adapter.linkAccount({ userId: ada.id, provider: "passkey", providerAccountId: "ada-passkeys", type: "webauthn" })
  await adapter.createAuthenticator({ credentialID: CREDENTIAL, userId: ada.id, providerAccountId: "ada-passkeys", credentialPublicKey: "cHVibGlj", counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true })
  await adapter.createAuthFactor({ id: "ada-backup-1", userId: ada.id, type: "backup", secret: "hashed", createdAt: new Date() })
  await adapter.createVerificationToken({ identifier: "ada@example.com", token: "outstanding-sign-in-link", expires: new Date(Date.now() + 3_600_000) })
  const mails: MailMessage[] = []
  const audit: AuditEvent[] = []
  const revoked: string[] = []
  const config = testConfig({
    adapter,
    providers: [passwordProvider({ authorize: ({ username, password }) => (username === "ada" && password === PASSWORD ? { id: ada.id, email: "ada@example.com" } : null) })],
    session: { strategy: "jwt" },
    mail: { send: (message) => void mails.push(message) },
    events: { audit: (event) => void audit.push(event), sessionRevoked: ({ reason }) => void revoked.push(reason) },
    ...overrides,
  })
  return { adapter, config, mails, audit, revoked, userId: ada.id }
}

async function signIn(config: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
  expect(response.status).toBe(302)
  return jar
}

async function askDeletion(config: AuthConfig, jar: Jar, headers: Record<string, string> = JSON_ACCEPT): Promise<Response> {
  return call(config, jar, "/api/auth/account/delete", { form: { csrfToken: await csrfToken(config, jar) }, headers })
}

describe("deleting the account", () => {
  it("deletes the user, accounts, passkeys, factors, session records, the address's sign-in links and a pending email change; every session ends", async () => {
    const { adapter, config, mails, audit, revoked, userId } = await setup()
    const jar = await signIn(config)
    const otherDevice = await signIn(config)
    await call(config, jar, "/api/auth/account/email", { form: { csrfToken: await csrfToken(config, jar), email: "ada@new.example" }, headers: JSON_ACCEPT })
    const change = mails.at(-1)?.url ?? ""
    const response = await askDeletion(config, jar)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true, passkeys: { rpId: "localhost", credentialIds: [CREDENTIAL] } })
    expect(setCookies(response).get("authjs.session-token")).toBe("")
    expect(audit.at(-1)).toMatchObject({ type: "accountDelete", outcome: "success", userId })
    expect(await adapter.getUser(userId)).toBeNull()
    expect(await adapter.getUserByEmail("ada@example.com")).toBeNull()
    expect(await adapter.getUserByAccount({ provider: "acme", providerAccountId: "ada-at-acme" })).toBeNull()
    expect(await adapter.listAccountsByUserId(userId)).toEqual([])
    expect(await adapter.listAuthenticatorsByUserId(userId)).toEqual([])
    expect(await adapter.listAuthFactors(userId)).toEqual([])
    expect(await adapter.listSessionRecords({ userId })).toEqual([])
    // The sign-in link sent before cannot sign in (and so re-create the account).
    expect(await adapter.useVerificationToken({ identifier: "ada@example.com", token: "outstanding-sign-in-link" })).toBeNull()
    expect((await followEmailLink(config, new Jar(), change)).status).toBe(403)
    expect(await sessionOf(config, otherDevice)).toBeNull()
    expect(revoked).toEqual(["accountDeleted", "accountDeleted"])
  })

  it("V7.5.1: a stale session gets ReauthRequired and nothing is deleted", async () => {
    const { adapter, config, audit, userId } = await setup()
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 20 * 60_000)
    const response = await askDeletion(config, jar)
    expect(response.status).toBe(403)
    const body = (await response.json()) as { error: string; url: string }
    expect(body.error).toBe("ReauthRequired")
    expect(body.url.startsWith(`${ORIGIN}/api/auth/reauth?`)).toBe(true)
    expect(await adapter.getUser(userId)).not.toBeNull()
    expect(await sessionOf(config, jar)).not.toBeNull()
    expect(audit.at(-1)).toMatchObject({ type: "accountDelete", outcome: "failure", reason: "reauthRequired" })
  })

  it("V7.5.1: asks for level 2 when the user has a confirmed second factor, even from a fresh password sign-in", async () => {
    const { adapter, config, userId } = await setup()
    await adapter.createAuthFactor({ id: "ada-totp", userId, type: "totp", secret: "sealed", createdAt: new Date(), confirmedAt: new Date() })
    const jar = await signIn(config)
    const response = await askDeletion(config, jar)
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "ReauthRequired" })
    expect(await adapter.getUser(userId)).not.toBeNull()
  })

  it("refuses a post without the CSRF token", async () => {
    const { adapter, config, userId } = await setup()
    const jar = await signIn(config)
    const response = await call(config, jar, "/api/auth/account/delete", { form: {}, headers: JSON_ACCEPT })
    expect(response.status).toBe(403)
    expect(await adapter.getUser(userId)).not.toBeNull()
  })

  it("WebAuthn signal methods: a form gets the 'deleted' page, whose one script (admitted by its hash) signals the deleted passkeys", async () => {
    const { config } = await setup()
    const jar = await signIn(config)
    const response = await askDeletion(config, jar, { accept: "text/html" })
    expect(response.status).toBe(200)
    const page = await response.text()
    expect(page).toContain("Your account was deleted")
    expect(page).toContain(`"credentialIds":["${CREDENTIAL}"]`)
    const script = /<script>([^<]*)<\/script>/.exec(page)?.[1] ?? ""
    expect(script).toContain("signalUnknownCredential")
    const hash = createHash("sha256").update(script).digest("base64")
    expect(response.headers.get("content-security-policy")).toContain(`script-src 'sha256-${hash}'`)
  })

  it.each([
    ["deleteUser", ["deleteUser"]],
    ["session records", ["listSessionRecords", "useOnce"]],
  ])("answers 503 Configuration without %s, naming what is missing in the log", async (_what, methods) => {
    const errors: string[] = []
    const { adapter } = await setup()
    const lacking: Record<string, unknown> = { ...(adapter as StrictAdapter) }
    for (const method of methods) Reflect.deleteProperty(lacking, method)
    const { config } = await setup({ adapter: lacking, logger: { error: (error) => void errors.push(error.message), warn: () => undefined } })
    const response = await call(config, new Jar(), "/api/auth/account/delete", { form: {}, headers: JSON_ACCEPT })
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    for (const method of methods) expect(errors.join("\n")).toContain(`\`${method}\``)
  })
})

describe("the server's deleteAccount()", () => {
  it("deletes the request's user and hands the cleared cookie to setCookie; a stale session gets ReauthRequired with its url", async () => {
    const { adapter, config, userId } = await setup()
    clockAt(T0)
    const jar = await signIn(config)
    const request = new Request(`${ORIGIN}/settings`, { method: "POST", headers: { cookie: jar.header() } })
    clockAt(T0 + 20 * 60_000)
    const stale = await deleteAccount(request, config)
    expect(stale).toMatchObject({ ok: false, error: "ReauthRequired" })
    expect(stale.ok ? undefined : stale.url).toContain("/api/auth/reauth?")
    clockAt(T0 + 60_000)
    const cookies: string[] = []
    expect(await deleteAccount(request, config, { setCookie: (cookie) => void cookies.push(cookie) })).toEqual({ ok: true })
    expect(cookies.some((cookie) => cookie.startsWith("authjs.session-token=;"))).toBe(true)
    expect(await adapter.getUser(userId)).toBeNull()
  })
})
