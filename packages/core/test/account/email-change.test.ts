/**
 * The email change (issue 38 item 6): `POST /account/email` behind a recent authentication, one
 * answer whatever the address, a link to the new address only, a confirm page that changes
 * nothing, its post that applies the change once (in any browser), and what ends a pending change.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { StrictAdapter } from "../../src/adapters.js"
import { changeEmail } from "../../src/index.js"
import type { AuditEvent, AuthConfig, MailMessage } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, call, clockAt, csrfToken, followEmailLink, passwordProvider, sessionOf, testConfig } from "../helpers.js"

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0)
const JSON_ACCEPT = { accept: "application/json" }
const ADA = "user-ada"
const BOB = "user-bob"

afterEach(() => {
  vi.useRealTimers()
})

/** ada and bob, stored, with passwords; mails and audit events collected. */
async function setup(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  // The memory adapter picks its own ids: `ADA` and `BOB` name them.
  const ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null, name: "Ada", image: null })
  const bob = await adapter.createUser({ id: "", email: "bob@example.com", emailVerified: null, name: "Bob", image: null })
  const ids: Record<string, string> = { [ADA]: ada.id, [BOB]: bob.id }
  const mails: MailMessage[] = []
  const audit: AuditEvent[] = []
  const config = testConfig({
    adapter,
    providers: [
      passwordProvider({
        authorize: ({ username, password }) => (password !== PASSWORD ? null : username === "ada" ? { id: ada.id, email: "ada@example.com" } : username === "bob" ? { id: bob.id, email: "bob@example.com" } : null),
      }),
    ],
    session: { strategy: "jwt" },
    mail: { send: (message) => void mails.push(message) },
    events: { audit: (event) => void audit.push(event) },
    ...overrides,
  })
  const user = (name: string): string => ids[name] ?? name
  return { adapter, config, mails, audit, user }
}

async function signIn(config: AuthConfig, username = "ada"): Promise<Jar> {
  const jar = new Jar()
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username, password: PASSWORD } })
  expect(response.status).toBe(302)
  return jar
}

async function askChange(config: AuthConfig, jar: Jar, email: string, headers: Record<string, string> = JSON_ACCEPT): Promise<Response> {
  return call(config, jar, "/api/auth/account/email", { form: { csrfToken: await csrfToken(config, jar), email }, headers })
}

/** The link of the last mail, as the user's mail program shows it. */
function lastLink(mails: readonly MailMessage[]): string {
  const url = mails.at(-1)?.url
  if (url === undefined) throw new Error("the last mail carries no link")
  return url
}

describe("asking for an email change", () => {
  it("V7.5.1: a stale session gets ReauthRequired (403 JSON with the re-authentication url, 303 for a form) and nothing is mailed", async () => {
    const { config, mails, audit, user } = await setup()
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 20 * 60_000)
    const fetched = await askChange(config, jar, "ada@new.example")
    expect(fetched.status).toBe(403)
    const body = (await fetched.json()) as { error: string; url: string }
    expect(body.error).toBe("ReauthRequired")
    expect(new URL(body.url).pathname).toBe("/api/auth/reauth")
    const form = await askChange(config, jar, "ada@new.example", { accept: "text/html" })
    expect(form.status).toBe(303)
    expect(new URL(form.headers.get("location") ?? "").pathname).toBe("/api/auth/reauth")
    expect(mails).toEqual([])
    expect(audit.at(-1)).toMatchObject({ type: "emailChange", outcome: "failure", reason: "reauthRequired", userId: user(ADA) })
  })

  it("without a session answers 401 SessionRequired, and without a CSRF token 403 MissingCSRF", async () => {
    const { config, mails } = await setup()
    const anonymous = await askChange(config, new Jar(), "ada@new.example")
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ error: "SessionRequired" })
    const jar = await signIn(config)
    const forged = await call(config, jar, "/api/auth/account/email", { form: { email: "ada@new.example" }, headers: JSON_ACCEPT })
    expect(forged.status).toBe(403)
    expect(await forged.json()).toMatchObject({ error: "MissingCSRF" })
    expect(mails).toEqual([])
  })

  it.each([
    ["a list", "a@new.example, b@new.example"],
    ["a display name", "Ada <ada@new.example>"],
    ["no domain", "ada@"],
    ["an oversize value", `${"a".repeat(400)}@new.example`],
    ["nothing", ""],
  ])("refuses %s as 400 EmailSignInError and mails nothing", async (_what, email) => {
    const { config, mails } = await setup()
    const jar = await signIn(config)
    const response = await askChange(config, jar, email)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "EmailSignInError" })
    expect(mails).toEqual([])
  })

  it("answers the same for another account's address: that address is told, with no link", async () => {
    const { config, mails, audit, user } = await setup()
    const jar = await signIn(config)
    const free = await askChange(config, jar, "ada@new.example")
    const taken = await askChange(config, jar, "BOB@example.com")
    expect([free.status, taken.status]).toEqual([200, 200])
    expect(await taken.json()).toEqual(await free.json())
    expect(mails.map((mail) => [mail.to, mail.kind, mail.url === undefined])).toEqual([
      ["ada@new.example", "emailChange", false],
      ["bob@example.com", "emailChange", true],
    ])
    expect(mails[1]?.text).toContain("another account already uses it")
    expect(audit.at(-1)).toMatchObject({ type: "emailChange", outcome: "failure", reason: "addressTaken", userId: user(ADA) })
  })

  it("a form gets the 'check your inbox' page", async () => {
    const { config } = await setup()
    const jar = await signIn(config)
    const page = await askChange(config, jar, "ada@new.example", { accept: "text/html" })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Check your inbox")
  })

  it("counts the mail against the new address's mailbox (+tags and case are one inbox)", async () => {
    const { config, mails } = await setup({ rateLimit: { mailPerAddress: { limit: 1 } } })
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    const second = await askChange(config, jar, "ADA+settings@new.example")
    expect(second.status).toBe(200)
    expect(mails.map((mail) => mail.to)).toEqual(["ada@new.example"])
  })

  it("answers 503 Configuration naming deleteVerificationTokens when the adapter lacks it", async () => {
    const { adapter } = await setup()
    const lacking: Record<string, unknown> = { ...(adapter as StrictAdapter) }
    Reflect.deleteProperty(lacking, "deleteVerificationTokens")
    const errors: string[] = []
    const { config } = await setup({ adapter: lacking, logger: { error: (error) => void errors.push(error.message), warn: () => undefined } })
    const jar = await signIn(config)
    const response = await askChange(config, jar, "ada@new.example")
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    expect(errors.join("\n")).toContain("`deleteVerificationTokens`")
  })
})

describe("hostile requests to the account routes", () => {
  it("answers an unknown path 404, a GET of a POST route 405, and an oversized or forged link token the 'no longer works' page, never a 500", async () => {
    const { config } = await setup()
    const jar = await signIn(config)
    expect((await call(config, jar, "/api/auth/account/nothing")).status).toBe(404)
    expect((await call(config, jar, "/api/auth/account/email/confirm/extra")).status).toBe(404)
    for (const path of ["/api/auth/account/email", "/api/auth/account/delete"]) expect((await call(config, jar, path)).status).toBe(405)
    for (const token of ["x".repeat(5000), "a.b.c.d.e", "%"]) {
      const page = await call(config, new Jar(), `/api/auth/account/email/confirm?token=${encodeURIComponent(token)}`)
      expect(page.status).toBe(403)
    }
    const forged = await call(config, jar, "/api/auth/account/email/confirm", { form: { csrfToken: await csrfToken(config, jar), token: "x".repeat(5000) }, headers: JSON_ACCEPT })
    expect(forged.status).toBe(403)
    expect(await forged.json()).toEqual({ error: "Verification" })
  })
})

describe("confirming an email change", () => {
  it("V6.3.7: applies only through the new address's link, in a browser without a session, verified, and tells the old address", async () => {
    const { adapter, config, mails, audit, user } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    expect(audit.at(-1)).toMatchObject({ type: "emailChange", outcome: "pending", userId: user(ADA) })
    // Nothing changes before the link is confirmed: the address links nothing, signs nobody in.
    expect(await adapter.getUserByEmail("ada@new.example")).toBeNull()
    const before = Date.now()
    const confirmed = await followEmailLink(config, new Jar(), lastLink(mails))
    expect(confirmed.status).toBe(200)
    expect(await confirmed.text()).toContain("Email address changed")
    const stored = await adapter.getUser(user(ADA))
    expect(stored?.email).toBe("ada@new.example")
    expect(stored?.emailVerified?.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(mails.at(-1)).toMatchObject({ to: "ada@example.com", kind: "notice" })
    expect(mails.at(-1)?.url).toBeUndefined()
    expect(audit.at(-1)).toMatchObject({ type: "emailChange", outcome: "success", userId: user(ADA) })
    // The session that asked goes on.
    expect((await sessionOf(config, jar))?.user).toBeDefined()
  })

  it("GET never applies it: a mail scanner opening the link (twice) changes nothing, and the link still works", async () => {
    const { adapter, config, mails, user } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    const link = lastLink(mails)
    for (let i = 0; i < 2; i++) {
      const page = await call(config, new Jar(), link)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("ada@new.example")
    }
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@example.com")
    expect((await followEmailLink(config, new Jar(), link)).status).toBe(200)
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@new.example")
  })

  it("refuses a replayed link", async () => {
    const { config, mails, audit } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    const link = lastLink(mails)
    const browser = new Jar()
    const page = await call(config, browser, link)
    const { parseForms } = await import("@portcullis/test-kit/browser")
    const [form] = parseForms(await page.text())
    const fields = Object.fromEntries((form?.controls ?? []).map((control) => [control.name, control.values[0] ?? ""]))
    expect((await call(config, browser, form?.action ?? "", { form: fields })).status).toBe(200)
    const replayed = await call(config, browser, form?.action ?? "", { form: fields })
    expect(replayed.status).toBe(403)
    expect(await replayed.text()).toContain("This link no longer works")
    expect(audit.at(-1)).toMatchObject({ type: "emailChange", outcome: "failure", reason: "invalidCode" })
  })

  it("refuses a link after its hour", async () => {
    const { adapter, config, mails, user } = await setup()
    clockAt(T0)
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    clockAt(T0 + 60 * 60_000 + 1000)
    const page = await call(config, new Jar(), lastLink(mails))
    expect(page.status).toBe(403)
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@example.com")
  })

  it("a newer request cancels the older: only the newest link works", async () => {
    const { adapter, config, mails, user } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@first.example")
    const older = lastLink(mails)
    await askChange(config, jar, "ada@second.example")
    const newer = lastLink(mails)
    await expect(followEmailLink(config, new Jar(), older)).resolves.toHaveProperty("status", 403)
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@example.com")
    expect((await followEmailLink(config, new Jar(), newer)).status).toBe(200)
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@second.example")
  })

  it("'sign out everywhere' cancels a pending change", async () => {
    const { adapter, config, mails, user } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    const revoked = await call(config, jar, "/api/auth/sessions/revoke", { form: { csrfToken: await csrfToken(config, jar), all: "true" }, headers: JSON_ACCEPT })
    expect(revoked.status).toBe(200)
    expect((await followEmailLink(config, new Jar(), lastLink(mails))).status).toBe(403)
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@example.com")
  })

  it("refuses a tampered token and one sealed under another secret", async () => {
    const { config, mails } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    const link = new URL(lastLink(mails))
    const token = link.searchParams.get("token") ?? ""
    link.searchParams.set("token", `${token.slice(0, -4)}AAAA`)
    expect((await call(config, new Jar(), link.href)).status).toBe(403)
    const other = await setup({ secret: "Wm9wYXJ0aWNsZXMgYW5kIHN0cmluZ3MgZm9yIGEgdGVzdCBrZXk=" })
    expect((await call(other.config, new Jar(), lastLink(mails))).status).toBe(403)
  })

  it("refuses the change when another account took the address since the link was sent", async () => {
    const { adapter, config, mails, audit, user } = await setup()
    const jar = await signIn(config)
    await askChange(config, jar, "ada@new.example")
    await adapter.updateUser({ id: user(BOB), email: "ada@new.example" })
    expect((await followEmailLink(config, new Jar(), lastLink(mails))).status).toBe(403)
    expect((await adapter.getUser(user(ADA)))?.email).toBe("ada@example.com")
    expect(audit.at(-1)).toMatchObject({ type: "emailChange", outcome: "failure", reason: "addressTaken" })
  })
})

describe("the server's changeEmail()", () => {
  it("asks for the change from server code (no CSRF token), answers a bad address and a stale session as typed results", async () => {
    const { config, mails } = await setup()
    clockAt(T0)
    const jar = await signIn(config)
    const request = new Request(`${ORIGIN}/settings`, { method: "POST", headers: { cookie: jar.header() } })
    expect(await changeEmail(request, config, { email: "ada@new.example" })).toEqual({ ok: true })
    expect(mails.map((mail) => mail.to)).toEqual(["ada@new.example"])
    expect(await changeEmail(request, config, { email: "not an address" })).toEqual({ ok: false, error: "EmailSignInError" })
    clockAt(T0 + 20 * 60_000)
    const stale = await changeEmail(request, config, { email: "ada@other.example" })
    expect(stale).toMatchObject({ ok: false, error: "ReauthRequired" })
    expect(stale.ok ? undefined : stale.url).toContain("/api/auth/reauth?")
    expect(await changeEmail(new Request(`${ORIGIN}/settings`, { method: "POST" }), config, { email: "ada@other.example" })).toMatchObject({ ok: false, error: "SessionRequired" })
    expect(mails).toHaveLength(1)
  })
})
