/**
 * Email codes as a second factor (`mfa.factors: ["email"]`): who owes one (a verified address,
 * never after an email link), `POST /mfa/email` mailing a 6-digit code (`mail.send`, kind
 * `mfaCode`) and `/mfa/verify { factor: "email" }` completing the pending sign-in with it: 10
 * minutes, 3 tries, bound to the pending sign-in, stored only as a keyed hash, used once.
 */
import { afterEach, describe, expect, it, vi } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { EMAIL_CODE_MAX_AGE, checkEmailCode, sendEmailCode } from "../../src/factors/email-code.js"
import { PENDING_MAX_AGE, type PendingSignIn } from "../../src/factors/pending.js"
import { createContext } from "../../src/http/context.js"
import type { SendVerificationRequestParams } from "../../src/providers/index.js"
import type { AuditEvent, AuthConfig, MailMessage } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, call, clockAt, csrfToken, followEmailLink, location, passwordProvider, testConfig } from "../helpers.js"

const USER = "user-ada"

afterEach(() => {
  vi.useRealTimers()
})

interface Setup {
  config: AuthConfig
  /** Every verification token the store was given. */
  rows: unknown[]
  mails: MailMessage[]
  links: SendVerificationRequestParams[]
  audits: AuditEvent[]
  logs: string[]
}

function setup(overrides: Partial<AuthConfig> = {}, verified: Date | null = new Date()): Setup {
  const mails: MailMessage[] = []
  const links: SendVerificationRequestParams[] = []
  const audits: AuditEvent[] = []
  const logs: string[] = []
  const rows: unknown[] = []
  const memory = MemoryAdapter({ users: [{ id: USER, name: "Ada", email: "ada@example.com", emailVerified: verified }] })
  const adapter: typeof memory = { ...memory, createVerificationToken: (token) => {
    rows.push(token)
    return memory.createVerificationToken(token)
  } }
  const config = testConfig({
    adapter,
    providers: [passwordProvider(), { id: "email", name: "Email", type: "email", from: "no-reply@app.example", sendVerificationRequest: (params) => void links.push(params) }],
    mfa: { factors: ["totp", "email"] },
    mail: { send: (message) => void mails.push(message) },
    events: { audit: (event) => void audits.push(event) },
    debug: true,
    logger: {
      error: (error) => logs.push(`${error.code}: ${error.message} ${String((error.cause as Error | undefined)?.message)}`),
      warn: (code, message) => logs.push(`${code}: ${message ?? ""}`),
      debug: (message, metadata) => logs.push(`${message} ${JSON.stringify(metadata ?? null)}`),
    },
    ...overrides,
  })
  return { config, rows, mails, links, audits, logs }
}

/** Ada's password sign-in, held at the gate. */
async function pend(config: AuthConfig, jar = new Jar()): Promise<Jar> {
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` } })
  expect(location(response).pathname).toBe("/api/auth/mfa")
  return jar
}

async function askCode(config: AuthConfig, jar: Jar, headers: Record<string, string> = {}): Promise<Response> {
  return call(config, jar, "/api/auth/mfa/email", { form: { csrfToken: await csrfToken(config, jar) }, headers })
}

async function verify(config: AuthConfig, jar: Jar, code: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "email", code }, headers })
}

function copyJar(jar: Jar): Jar {
  const copy = new Jar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

async function session(config: AuthConfig, jar: Jar): Promise<{ assurance?: { level: number; methods: string[] } } | null> {
  return (await (await call(config, jar, "/api/auth/session")).json()) as { assurance?: { level: number; methods: string[] } } | null
}

function wrongFor(code: string): string {
  return code === "000000" ? "111111" : "000000"
}

describe("POST /mfa/email and /mfa/verify { factor: \"email\" }", () => {
  it("NIST SP 800-63B §3.1.3: a verified address owes a mailed code; a 6-digit code (mail kind mfaCode) completes the sign-in at level 2, audited secondFactor", async () => {
    const { config, mails, audits } = setup()
    const jar = await pend(config)
    expect(await session(config, jar)).toBeNull()
    expect(await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["email"] })
    const asked = await askCode(config, jar)
    expect(asked.status).toBe(303)
    expect(location(asked).href).toBe(`${ORIGIN}/api/auth/mfa?factor=email`)
    expect(mails).toHaveLength(1)
    const [mail] = mails
    expect(mail).toMatchObject({ to: "ada@example.com", kind: "mfaCode" })
    expect(mail?.code).toMatch(/^\d{6}$/)
    expect(mail?.text).toContain(mail?.code)
    const done = await verify(config, jar, mail?.code ?? "")
    expect(location(done).href).toBe(`${ORIGIN}/dashboard`)
    expect((await session(config, jar))?.assurance).toMatchObject({ level: 2, methods: ["pwd", "email", "mfa"] })
    expect(audits.map((event) => [event.type, event.outcome, event.methods])).toEqual([
      ["signIn", "pending", ["pwd"]],
      ["secondFactor", "success", ["email"]],
      ["signIn", "success", ["pwd", "email", "mfa"]],
    ])
  })

  it("the mail carries the code; no log line, audit event or stored row does, though the transport fails with it (V16.2.5)", async () => {
    const sent: MailMessage[] = []
    const failing = setup({ mail: { send: (message) => {
      sent.push(message)
      throw new Error(`SMTP 550 refused: ${message.text}`)
    } } })
    const jar = await pend(failing.config)
    // The same answer whether or not the mail went out.
    expect(location(await askCode(failing.config, jar)).href).toBe(`${ORIGIN}/api/auth/mfa?factor=email`)
    const code = sent[0]?.code ?? ""
    expect(code).toMatch(/^\d{6}$/)
    expect(failing.logs.join("\n")).toContain("mfaCode")
    expect(failing.logs.join("\n")).not.toContain(code)
    expect(location(await verify(failing.config, jar, code)).href).toBe(`${ORIGIN}/dashboard`)
    expect(failing.logs.join("\n")).not.toContain(code)
    expect(JSON.stringify(failing.audits)).not.toContain(code)
    // Stored only as a keyed hash, under the pending sign-in's id.
    expect(JSON.stringify(failing.rows)).toContain('"identifier":"mfa-email:')
    expect(JSON.stringify(failing.rows)).not.toContain(code)
  })

  it("V6.6.3: three wrong codes spend the code: the right one is then refused (codeExpired), and a new code works", async () => {
    const { config, mails, audits } = setup()
    const jar = await pend(config)
    await askCode(config, jar)
    const code = mails[0]?.code ?? ""
    for (let i = 0; i < 3; i++) expect(location(await verify(config, jar, wrongFor(code))).href).toBe(`${ORIGIN}/api/auth/mfa?factor=email&error=invalidCode`)
    const spent = await verify(config, jar, code, { accept: "application/json" })
    expect(spent.status).toBe(400)
    expect(await spent.json()).toEqual({ error: "codeExpired" })
    expect(await session(config, jar)).toBeNull()
    await askCode(config, jar)
    expect(location(await verify(config, jar, mails[1]?.code ?? "")).href).toBe(`${ORIGIN}/dashboard`)
    expect(audits.filter((event) => event.type === "secondFactor").map((event) => event.reason ?? event.outcome)).toEqual(["invalidCode", "invalidCode", "invalidCode", "expired", "success"])
  })

  it("V6.6.3: asking again replaces the code: the first one no longer works", async () => {
    const { config, mails } = setup()
    const jar = await pend(config)
    await askCode(config, jar)
    await askCode(config, jar)
    const [first, second] = mails.map((mail) => mail.code ?? "")
    if (first !== second) expect(location(await verify(config, jar, first ?? "")).href).toBe(`${ORIGIN}/api/auth/mfa?factor=email&error=invalidCode`)
    expect(location(await verify(config, jar, second ?? "")).href).toBe(`${ORIGIN}/dashboard`)
  })

  it("V6.6.3: a code is used once: replayed in a second request with the same cookies, it completes nothing, sequentially or at once", async () => {
    const { config, mails } = setup()
    const jar = await pend(config)
    await askCode(config, jar)
    const code = mails[0]?.code ?? ""
    const copies = [copyJar(jar), copyJar(jar)]
    const answers = await Promise.all(copies.map((copy) => verify(config, copy, code, { accept: "application/json" })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
    const replayed = await verify(config, jar, code, { accept: "application/json" })
    expect(replayed.status).toBe(401)
    expect(await session(config, jar)).toBeNull()
  })

  it("a code is bound to its pending sign-in: another sign-in's code cookie completes nothing", async () => {
    const { config, mails } = setup()
    const first = await pend(config)
    await askCode(config, first)
    const second = await pend(config, new Jar())
    for (const [name, value] of first.cookies) if (name.includes("mfa-email")) second.cookies.set(name, value)
    const refused = await verify(config, second, mails[0]?.code ?? "", { accept: "application/json" })
    expect(await refused.json()).toEqual({ error: "codeExpired" })
    expect(await session(config, second)).toBeNull()
  })

  it("the mail allowance (rateLimit.mailPerAddress) holds per mailbox, and the answer stays the same past it", async () => {
    const { config, mails, logs } = setup({ rateLimit: { mailPerAddress: { limit: 1, window: 60 } } })
    const jar = await pend(config)
    await askCode(config, jar)
    const second = await askCode(config, jar)
    expect(location(second).href).toBe(`${ORIGIN}/api/auth/mfa?factor=email`)
    expect(mails).toHaveLength(1)
    expect(logs.join("\n")).toContain("MailLimit")
  })
})

describe("never after an email link", () => {
  async function byLink(ctx: Setup, jar = new Jar()): Promise<Response> {
    await call(ctx.config, jar, "/api/auth/signin/email", { form: { csrfToken: await csrfToken(ctx.config, jar), email: "ada@example.com", callbackUrl: `${ORIGIN}/dashboard` } })
    return followEmailLink(ctx.config, jar, ctx.links.at(-1)?.url ?? "")
  }

  it("a user whose only factor is their address signs in by its link without a code (level 1), unless required", async () => {
    const ctx = setup()
    const jar = new Jar()
    expect(location(await byLink(ctx, jar)).href).toBe(`${ORIGIN}/dashboard`)
    expect((await session(ctx.config, jar))?.assurance).toMatchObject({ level: 1, methods: ["email"] })
    const required = setup({ mfa: { factors: ["totp", "email"], required: true } })
    const held = new Jar()
    expect(location(await byLink(required, held)).pathname).toBe("/api/auth/mfa")
    expect(await (await call(required.config, held, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: [], setup: `${ORIGIN}/api/auth/mfa/setup` })
  })

  it("a pending sign-in that began with an email link is never offered, mailed or completed by an email code (InvalidFactor)", async () => {
    const ctx = setup({ mfa: { factors: ["totp", "email"], required: true } })
    const jar = new Jar()
    await byLink(ctx, jar)
    const asked = await askCode(ctx.config, jar, { accept: "application/json" })
    expect(asked.status).toBe(400)
    expect(await asked.json()).toEqual({ error: "InvalidFactor" })
    expect(ctx.mails).toHaveLength(0)
    // A code mailed to another pending sign-in of the same user, carried over, completes nothing either.
    const other = await pend(ctx.config)
    await askCode(ctx.config, other)
    for (const [name, value] of other.cookies) if (name.includes("mfa-email")) jar.cookies.set(name, value)
    const refused = await verify(ctx.config, jar, ctx.mails[0]?.code ?? "", { accept: "application/json" })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ error: "InvalidFactor" })
    expect(await session(ctx.config, jar)).toBeNull()
  })

  it("an unverified address owes and offers nothing", async () => {
    const ctx = setup({}, null)
    const jar = new Jar()
    const response = await call(ctx.config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(ctx.config, jar), username: "ada", password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` } })
    expect(location(response).href).toBe(`${ORIGIN}/dashboard`)
  })
})

describe("the code's own lifetime (checkEmailCode)", () => {
  /** A pending sign-in made by hand, living longer than any real one, so only the code's clock runs out. */
  function longPending(): PendingSignIn {
    return { id: "pending-1", token: "0.x", target: `${ORIGIN}/dashboard`, expiresAt: Math.floor(Date.now() / 1000) + 10 * PENDING_MAX_AGE, signedIn: { user: { id: USER }, account: null, isNewUser: false, methods: ["pwd"] } }
  }

  async function contextWith(config: AuthConfig, cookies: string) {
    const url = new URL(`${ORIGIN}/api/auth/mfa/verify`)
    return createContext(await resolveConfig(config), new Request(url, { method: "POST", headers: { cookie: cookies } }), url)
  }

  async function mailed(ctx: Setup, pending: PendingSignIn): Promise<{ code: string; cookies: string }> {
    const context = await contextWith(ctx.config, "")
    await sendEmailCode(context, pending, "ada@example.com")
    return { code: ctx.mails.at(-1)?.code ?? "", cookies: context.setCookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") }
  }

  it("NIST SP 800-63B §3.1.3.1: works until 10 minutes after it was sent, and not after", async () => {
    const ctx = setup({ rateLimit: false })
    const t0 = Date.now()
    clockAt(t0)
    const pending = longPending()
    const early = await mailed(ctx, pending)
    clockAt(t0 + (EMAIL_CODE_MAX_AGE - 5) * 1000)
    expect(await checkEmailCode(await contextWith(ctx.config, early.cookies), pending, early.code)).toEqual({ ok: true, method: "email" })
    clockAt(t0)
    const late = await mailed(ctx, pending)
    clockAt(t0 + (EMAIL_CODE_MAX_AGE + 1) * 1000)
    expect(await checkEmailCode(await contextWith(ctx.config, late.cookies), pending, late.code)).toEqual({ ok: false, reason: "expired" })
  })
})
