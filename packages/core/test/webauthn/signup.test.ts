/**
 * Passkey-first sign-up in an app that also has an email provider: the address is confirmed by
 * an emailed link before any user exists, and a stranger cannot tell a taken address from a new
 * one. Through `Auth()`, with the software authenticator and a mailer that records the links.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { signInMessage } from "../../src/providers/index.js"
import type { AuditEvent, AuthConfig, MailMessage } from "../../src/types.js"
import { Jar, ORIGIN, call, csrfToken, setCookies } from "../helpers.js"
import { SoftAuthenticator, b64url } from "./authenticator.js"
import { expectRefused, options, passkeyProvider, post, session, setup } from "./harness.js"

interface Mail {
  identifier: string
  url: URL
}

/** A configuration with the passkey provider (with `passkey` fields) and an email provider whose mails are recorded. */
function mailed(passkey: Record<string, unknown> = {}, overrides: Partial<AuthConfig> = {}) {
  const mails: Mail[] = []
  const email = {
    id: "email",
    name: "Email",
    type: "email",
    from: "no-reply@example.com",
    sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => void mails.push({ identifier, url: new URL(url) }),
  }
  const ctx = setup({ providers: [passkeyProvider(passkey) as never, email as never], ...overrides })
  return { ...ctx, mails }
}

type Ctx = ReturnType<typeof mailed>

/** Registers a new passkey for `email` in `jar`, nobody signed in: the callback's answer. */
async function register(ctx: Ctx, email: string, jar = new Jar(), device = new SoftAuthenticator(ORIGIN), bend: Parameters<SoftAuthenticator["create"]>[1] = {}) {
  const { options: creation } = await options(ctx.config, jar, `?action=register&email=${encodeURIComponent(email)}`)
  const response = await post(ctx.config, jar, "register", await device.create(creation, bend))
  return { jar, device, response }
}

/** A registration waiting for its link: the browser that made it, its passkey, and the mailed link. */
async function pending(ctx: Ctx, email: string, jar = new Jar()) {
  const { device, response } = await register(ctx, email, jar)
  expect(response.status).toBe(302)
  const mail = ctx.mails.at(-1)
  expect(mail?.identifier).toBe(email)
  return { jar, device, link: mail?.url ?? new URL(ORIGIN) }
}

/** Presses the confirmation page's button: the POST the page's form sends. */
async function confirm(ctx: Ctx, jar: Jar, link: URL, change: { pending?: string; token?: string; email?: string } = {}): Promise<Response> {
  const action = new URL("/api/auth/callback/passkey", ORIGIN)
  action.searchParams.set("pending", change.pending ?? link.searchParams.get("pending") ?? "")
  return call(ctx.config, jar, action.pathname + action.search, {
    form: {
      csrfToken: await csrfToken(ctx.config, jar),
      token: change.token ?? link.searchParams.get("token") ?? "",
      email: change.email ?? link.searchParams.get("email") ?? "",
      callbackUrl: link.searchParams.get("callbackUrl") ?? "",
    },
  })
}

/** The confirmation page's form: where it posts and the hidden fields it sends, as the browser reads them. */
function formOf(html: string): { action: URL; fields: Record<string, string> } {
  const unescape = (value: string) => value.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&")
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? ""
  const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((match) => [match[1] ?? "", unescape(match[2] ?? "")]))
  return { action: new URL(unescape(action)), fields }
}

/** A user who signed up with a confirmed passkey, signed out again. */
async function confirmedUser(ctx: Ctx, email: string) {
  const { jar, device, link } = await pending(ctx, email)
  expect((await confirm(ctx, jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
  const user = await ctx.adapter.getUserByEmail(email)
  await call(ctx.config, jar, "/api/auth/signout", { form: { csrfToken: await csrfToken(ctx.config, jar) } })
  return { jar, device, user }
}

/** The credential id of the authenticator's newest passkey. */
function credentialOf(device: SoftAuthenticator): string {
  const passkey = device.passkeys.at(-1)
  if (passkey === undefined) throw new Error("The authenticator holds no passkey.")
  return b64url(passkey.id)
}

afterEach(() => {
  vi.useRealTimers()
})

describe("a passkey sign-up with an email provider", () => {
  it("creates nobody until the mailed link is followed, then signs in with a verified address, and the passkey signs in after", async () => {
    const ctx = mailed()
    const { jar, device, response } = await register(ctx, "new@example.com")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/verify-request?provider=email&type=email`)
    expect(await session(ctx.config, jar)).toBeNull()
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
    expect(ctx.mails).toHaveLength(1)
    const link = ctx.mails[0]?.url ?? new URL(ORIGIN)
    expect(link.pathname).toBe("/api/auth/callback/passkey")
    expect(link.href.length).toBeLessThan(1500)

    // The link opens the sign-up page (not the email sign-in one); its button posts back and signs in.
    const page = await call(ctx.config, jar, link.pathname + link.search)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'none';/)
    const html = await page.text()
    expect(html).toContain("<title>Create your account</title>")
    expect(html).toContain("<h1>Create your account</h1>")
    expect(html).toContain("You are creating an account for <strong>new@example.com</strong>.")
    expect(html).toContain("the passkey you just made signs you in on this device")
    expect(html).toMatch(/<button type="submit" class="button primary"[^>]*>Create account<\/button>/)
    expect(html).toContain(`<a href="${ORIGIN}/api/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/account`)}">Back to sign in</a>`)
    expect(html).not.toMatch(/<script|Continue as|>Sign in</)
    const form = formOf(html)
    expect(form.action.pathname).toBe("/api/auth/callback/passkey")
    expect(form.action.searchParams.get("pending")).toBe(link.searchParams.get("pending"))
    expect(form.fields).toEqual({
      csrfToken: await csrfToken(ctx.config, jar),
      token: link.searchParams.get("token"),
      email: "new@example.com",
      callbackUrl: `${ORIGIN}/account`,
    })
    const signedIn = await confirm(ctx, jar, link)
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/account`)
    const user = await ctx.adapter.getUserByEmail("new@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect((await session(ctx.config, jar))?.user?.id).toBe(user?.id)
    expect(await ctx.adapter.listAuthenticatorsByUserId(user?.id ?? "")).toHaveLength(1)

    const later = new Jar()
    const { options: request } = await options(ctx.config, later, "?action=authenticate")
    expect((await post(ctx.config, later, "authenticate", await device.get(request))).headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, later))?.user?.id).toBe(user?.id)
  })

  it("answers a taken address exactly as a new one, and mails the same kind of link, which adds the passkey to the account once followed", async () => {
    const ctx = mailed()
    const owner = await confirmedUser(ctx, "ada@example.com")
    const [first] = await ctx.adapter.listAuthenticatorsByUserId(owner.user?.id ?? "")
    const laptop = new SoftAuthenticator(ORIGIN)
    const taken = await register(ctx, "ada@example.com", new Jar(), laptop)
    const takenMail = ctx.mails.at(-1)
    const fresh = await register(ctx, "nobody@example.com")
    const freshMail = ctx.mails.at(-1)

    const shape = (response: Response) => ({ status: response.status, location: response.headers.get("location"), cookies: [...setCookies(response).keys()] })
    expect(shape(taken.response)).toEqual(shape(fresh.response))
    for (const attempt of [taken, fresh]) expect(await session(ctx.config, attempt.jar)).toBeNull()
    const linkShape = (url: URL | undefined) => ({ path: url?.pathname, params: [...(url?.searchParams.keys() ?? [])] })
    expect(linkShape(takenMail?.url)).toEqual(linkShape(freshMail?.url))
    expect(takenMail?.identifier).toBe("ada@example.com")
    expect(await ctx.adapter.getAuthenticator(credentialOf(laptop))).toBeNull()

    // The built-in mail and the page say what the link does; pressing the page's button signs the owner in with the passkey added.
    const link = takenMail?.url ?? new URL(ORIGIN)
    const mail = signInMessage({ url: link.href })
    expect(mail.subject).toBe("Finish setting up your passkey for localhost:3000")
    expect(mail.text).toContain("If this address already has an account there, the passkey is added to it and you are signed in.")
    expect(signInMessage({ url: `${ORIGIN}/api/auth/callback/email?token=t&email=ada%40example.com` }).subject).toBe("Sign in to localhost:3000")
    const page = await (await call(ctx.config, taken.jar, link.pathname + link.search)).text()
    expect(page).toContain("<h1>Add your passkey</h1>")
    expect(page).toContain("The passkey you just created will be added to the account of <strong>ada@example.com</strong>")
    expect((await confirm(ctx, taken.jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, taken.jar))?.user?.id).toBe(owner.user?.id)
    const passkeys = await ctx.adapter.listAuthenticatorsByUserId(owner.user?.id ?? "")
    expect(passkeys.map((passkey) => passkey.credentialID).sort()).toEqual([first?.credentialID, credentialOf(laptop)].sort())
    expect(await ctx.adapter.getUserByEmail("nobody@example.com")).toBeNull()

    // Both passkeys sign the owner in from now on.
    for (const device of [owner.device, laptop]) {
      const later = new Jar()
      const { options: request } = await options(ctx.config, later, "?action=authenticate")
      expect((await post(ctx.config, later, "authenticate", await device.get(request))).headers.get("location")).toBe(`${ORIGIN}/account`)
      expect((await session(ctx.config, later))?.user?.id).toBe(owner.user?.id)
    }
  })

  it("asks the signIn callback before adding the passkey to an account, and adds nothing when it refuses", async () => {
    const ctx = mailed()
    const asked: string[] = []
    let watching = false
    ctx.config.callbacks = {
      signIn: ({ user, account }) => {
        if (watching) asked.push(`${account?.provider ?? ""} ${user.id ?? ""}`)
        return !watching || account?.provider !== "passkey"
      },
    }
    const owner = await confirmedUser(ctx, "ada@example.com")
    watching = true
    const { jar, device, link } = await pending(ctx, "ada@example.com")
    expect(new URL((await confirm(ctx, jar, link)).headers.get("location") ?? "").searchParams.get("error")).toBe("AccessDenied")
    expect(asked).toEqual([`email ${owner.user?.id ?? ""}`, `passkey ${owner.user?.id ?? ""}`])
    expect(await ctx.adapter.getAuthenticator(credentialOf(device))).toBeNull()
  })

  it("shows a confirmation page on GET and uses nothing up, so a mail scanner fetching the link spends nothing", async () => {
    const ctx = mailed()
    const { jar, link } = await pending(ctx, "new@example.com")
    for (let i = 0; i < 2; i++) {
      const page = await call(ctx.config, jar, link.pathname + link.search)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("<h1>Create your account</h1>")
    }
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
    expect(await session(ctx.config, jar)).toBeNull()
    expect((await confirm(ctx, jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
  })

  it("escapes the address and the name on the confirmation page, so a registration cannot inject markup", async () => {
    // The address's local part may hold `&` and `'` (not `<` or `"`); the name may hold anything.
    const ctx = mailed({ getUserInfo: () => ({ email: "o'neil&co@example.com", name: 'Eve <img src=x onerror="alert(1)"> & Co' }) })
    const { jar, link } = await pending(ctx, "o'neil&co@example.com")
    const html = await (await call(ctx.config, jar, link.pathname + link.search)).text()
    expect(html).toContain("for <strong>o&#39;neil&amp;co@example.com</strong> as <strong>Eve &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co</strong>.")
    expect(html).not.toContain("<img")
    expect(formOf(html).fields.email).toBe("o'neil&co@example.com")
    expect((await confirm(ctx, jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await ctx.adapter.getUserByEmail("o'neil&co@example.com"))?.name).toBe('Eve <img src=x onerror="alert(1)"> & Co')
  })

  it("asks the signIn callback before the user is created", async () => {
    const asked: string[] = []
    const ctx = mailed()
    ctx.config.callbacks = {
      signIn: ({ account }) => {
        asked.push(account?.provider ?? "")
        return account?.provider !== "passkey"
      },
    }
    const { jar, link } = await pending(ctx, "new@example.com")
    const response = await confirm(ctx, jar, link)
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("AccessDenied")
    expect(asked).toEqual(["email", "passkey"])
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
  })
})

describe("notices of a passkey added through a sign-up link (OWASP ASVS v5 6.3.7)", () => {
  it("the first passkey of the account the link made sends none; one the link adds to an existing account mails the owner and is audited as passkeyAdd", async () => {
    const notices: MailMessage[] = []
    const audits: AuditEvent[] = []
    const ctx = mailed({}, { mail: { send: (message) => void notices.push(message) }, events: { audit: (event) => void audits.push(event) } })
    const owner = await confirmedUser(ctx, "ada@example.com")
    expect(notices).toEqual([])
    expect(audits.filter((event) => event.type === "passkeyAdd")).toEqual([])

    const { jar, link } = await pending(ctx, "ada@example.com")
    expect((await confirm(ctx, jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
    expect(notices.map(({ to, kind, subject }) => [to, kind, subject])).toEqual([["ada@example.com", "notice", "A passkey was added"]])
    expect(`${notices[0]?.text ?? ""} ${notices[0]?.html ?? ""}`).not.toMatch(/https?:|\/api\/auth|token/i)
    expect(audits.filter((event) => event.type === "passkeyAdd").map(({ outcome, provider, userId }) => [outcome, provider, userId])).toEqual([["success", "passkey", owner.user?.id]])
  })
})

describe("a passkey waiting for its sign-up link", () => {
  it("is refused at sign-in without being forgotten in the browser that made it (no code for the Signal API), and as unknown anywhere else", async () => {
    const ctx = mailed()
    const { jar, device, link } = await pending(ctx, "new@example.com")
    const asClient = { "x-auth-return-redirect": "1" }
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    const here = (await (await post(ctx.config, jar, "authenticate", await device.get(request), {}, "passkey", asClient)).json()) as { url: string; code?: string }
    expect(body(here)).toEqual({ error: "WebAuthnVerificationError", code: "waiting_credential", signal: undefined })
    const page = await (await call(ctx.config, jar, here.url)).text()
    expect(page).toContain("This passkey is not set up yet: open the link we emailed you, in this browser, to finish.")
    expect(page).toContain('data-autofill="false"')

    const elsewhere = new Jar()
    const { options: again } = await options(ctx.config, elsewhere, "?action=authenticate")
    const there = (await (await post(ctx.config, elsewhere, "authenticate", await device.get(again), {}, "passkey", asClient)).json()) as { url: string; code?: string }
    expect(body(there)).toEqual({ error: "WebAuthnVerificationError", code: "unknown_credential", signal: "unknown_credential" })

    // The link still finishes it, and then it signs in.
    expect((await confirm(ctx, jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
    await call(ctx.config, jar, "/api/auth/signout", { form: { csrfToken: await csrfToken(ctx.config, jar) } })
    const { options: later } = await options(ctx.config, jar, "?action=authenticate")
    expect((await post(ctx.config, jar, "authenticate", await device.get(later))).headers.get("location")).toBe(`${ORIGIN}/account`)
  })
})

describe("the waiting-passkeys cookie", () => {
  it("attack: a forged, foreign or oversized cookie names no waiting passkey: the unknown one is still forgotten, never a 5xx", async () => {
    const ctx = mailed()
    const { jar, device } = await pending(ctx, "new@example.com")
    const name = [...jar.cookies.keys()].find((cookie) => cookie.endsWith("authjs.pending-passkey")) ?? expect.unreachable("no waiting-passkeys cookie was set")
    const sealed = jar.cookies.get(name) ?? ""
    const stranger = new Jar()
    await csrfToken(ctx.config, stranger)
    for (const value of ["x", `${sealed.slice(0, -4)}AAAA`, "A".repeat(5000), sealed]) {
      stranger.cookies.set(name, value)
      const { options: request } = await options(ctx.config, stranger, "?action=authenticate")
      const answer = (await (await post(ctx.config, stranger, "authenticate", await device.get(request), {}, "passkey", { "x-auth-return-redirect": "1" })).json()) as { url: string; code?: string }
      expect(body(answer), value.slice(0, 12)).toEqual({ error: "WebAuthnVerificationError", code: "unknown_credential", signal: "unknown_credential" })
    }
  })
})

/** A refusal's answer to the passkey client: the error and code its URL carries, and the code its body gives the Signal API. */
function body(answer: { url: string; code?: string }) {
  const url = new URL(answer.url)
  return { error: url.searchParams.get("error"), code: url.searchParams.get("code"), signal: answer.code }
}

describe("sign-up link refusals", () => {
  it("refuses a replayed sign-up link", async () => {
    const ctx = mailed()
    const { jar } = await confirmedUser(ctx, "new@example.com")
    const link = ctx.mails.at(-1)?.url ?? new URL(ORIGIN)
    await expectRefused(await confirm(ctx, jar, link), ctx.config, jar, /used already/)
  })

  it("refuses a tampered pending registration", async () => {
    const ctx = mailed()
    const { jar, link } = await pending(ctx, "new@example.com")
    const sealed = link.searchParams.get("pending") ?? ""
    const at = sealed.length - 30
    const tampered = `${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`
    await expectRefused(await confirm(ctx, jar, link, { pending: tampered }), ctx.config, jar, /altered/)
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
  })

  it("refuses a pending registration carried by another address's link", async () => {
    const ctx = mailed()
    const jar = new Jar()
    const ada = await pending(ctx, "ada@example.com", jar)
    const eve = await pending(ctx, "eve@example.com", jar)
    await expectRefused(await confirm(ctx, jar, eve.link, { pending: ada.link.searchParams.get("pending") ?? "" }), ctx.config, jar, /another address/)
    expect(await ctx.adapter.getUserByEmail("ada@example.com")).toBeNull()
    expect(await ctx.adapter.getUserByEmail("eve@example.com")).toBeNull()
  })

  it("refuses the link opened in another browser, so an unrequested mail cannot give a stranger's passkey an account", async () => {
    const ctx = mailed()
    // Mallory registers her passkey under Ada's address; Ada gets the mail and clicks it.
    const { link } = await pending(ctx, "ada@example.com")
    const ada = new Jar()
    await csrfToken(ctx.config, ada)
    await expectRefused(await call(ctx.config, ada, link.pathname + link.search), ctx.config, ada, /browser that created the passkey/)
    await expectRefused(await confirm(ctx, ada, link), ctx.config, ada, /browser that created the passkey/)
    expect(await ctx.adapter.getUserByEmail("ada@example.com")).toBeNull()
  })

  it("refuses the link on another origin", async () => {
    const ctx = mailed()
    const { jar, link } = await pending(ctx, "new@example.com")
    const elsewhere = new URL(link.pathname + link.search, "http://127.0.0.1:3000")
    const response = await Auth(new Request(elsewhere, { headers: { cookie: jar.header() } }), ctx.config)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(ctx.errors.at(-1)).toMatch(/another origin/)
  })

  it("refuses the link once someone else registered the passkey's credential id", async () => {
    const ctx = mailed()
    const { jar, device, link } = await pending(ctx, "new@example.com")
    const other = await confirmedUser(ctx, "mallory@example.com")
    const credentialId = credentialOf(device)
    const [theirs] = await ctx.adapter.listAuthenticatorsByUserId(other.user?.id ?? "")
    await ctx.adapter.createAuthenticator({ ...(theirs ?? { providerAccountId: "", credentialPublicKey: "", counter: 0, credentialDeviceType: "", credentialBackedUp: false }), userId: other.user?.id ?? "", credentialID: credentialId })
    await expectRefused(await confirm(ctx, jar, link), ctx.config, jar, /registered already/)
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
  })

  it("adds the passkey to the account the address got meanwhile, once the link proves the address", async () => {
    const ctx = mailed()
    const { jar, device, link } = await pending(ctx, "new@example.com")
    // The address's owner signs up by email in the meantime.
    const owner = new Jar()
    await call(ctx.config, owner, "/api/auth/signin/email", { form: { email: "new@example.com", csrfToken: await csrfToken(ctx.config, owner) } })
    const signIn = ctx.mails.at(-1)?.url ?? new URL(ORIGIN)
    await call(ctx.config, owner, "/api/auth/callback/email", {
      form: { token: signIn.searchParams.get("token") ?? "", email: "new@example.com", csrfToken: await csrfToken(ctx.config, owner) },
    })
    const user = await ctx.adapter.getUserByEmail("new@example.com")
    expect(user).not.toBeNull()
    expect((await confirm(ctx, jar, link)).headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, jar))?.user?.id).toBe(user?.id)
    expect((await ctx.adapter.listAuthenticatorsByUserId(user?.id ?? "")).map((passkey) => passkey.credentialID)).toEqual([credentialOf(device)])
  })

  it("attack: a link's registration confirmed with the token of another link to the same address is refused (the passkey is bound to its mail's token)", async () => {
    const ctx = mailed()
    const jar = new Jar()
    const first = await pending(ctx, "new@example.com", jar)
    const second = await pending(ctx, "new@example.com", jar)
    await expectRefused(await confirm(ctx, jar, second.link, { pending: first.link.searchParams.get("pending") ?? "" }), ctx.config, jar, /mailed with another token/)
    expect(await ctx.adapter.getAuthenticator(credentialOf(first.device))).toBeNull()
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
  })

  it("attack: a link to add a passkey to an account, opened in another browser than the one that made the passkey, adds nothing", async () => {
    const ctx = mailed()
    const owner = await confirmedUser(ctx, "ada@example.com")
    // Mallory registers her passkey under Ada's address; Ada gets the mail and clicks it.
    const { device, link } = await pending(ctx, "ada@example.com")
    const ada = new Jar()
    await csrfToken(ctx.config, ada)
    await expectRefused(await confirm(ctx, ada, link), ctx.config, ada, /browser that created the passkey/)
    expect(await ctx.adapter.getAuthenticator(credentialOf(device))).toBeNull()
    expect(await ctx.adapter.listAuthenticatorsByUserId(owner.user?.id ?? "")).toHaveLength(1)
  })

  it("refuses to add a passkey to an account that never verified the address, as an email sign-in is refused", async () => {
    const ctx = mailed()
    const claimed = await ctx.adapter.createUser({ id: crypto.randomUUID(), email: "claimed@example.com", emailVerified: null })
    const { jar, device, link } = await pending(ctx, "claimed@example.com")
    const response = await confirm(ctx, jar, link)
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await session(ctx.config, jar)).toBeNull()
    expect(await ctx.adapter.getAuthenticator(credentialOf(device))).toBeNull()
    expect(await ctx.adapter.listAuthenticatorsByUserId(claimed.id)).toEqual([])
  })

  it("refuses an expired sign-up link", async () => {
    const ctx = mailed()
    const { jar, link } = await pending(ctx, "new@example.com")
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 25 * 60 * 60 * 1000 })
    await expectRefused(await confirm(ctx, jar, link), ctx.config, jar, /expired/)
    vi.useRealTimers()
    expect(await ctx.adapter.getUserByEmail("new@example.com")).toBeNull()
  })

  it("never answers 5xx to a malformed sign-up link", async () => {
    const ctx = mailed()
    const { jar, link } = await pending(ctx, "new@example.com")
    for (const query of ["?pending=x", "?pending=x&pending=y&token=t&email=new%40example.com", `?pending=${"A".repeat(10_000)}&token=t&email=new%40example.com`, `${link.search}&token=again`]) {
      const response = await call(ctx.config, jar, `/api/auth/callback/passkey${query}`)
      expect(response.status, query).toBe(302)
    }
    expect(await session(ctx.config, jar)).toBeNull()
  })
})

describe("without an email provider", () => {
  it("still signs up at once, with an unverified address, and sends no link", async () => {
    const ctx = setup()
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=new%40example.com")
    const response = await post(ctx.config, jar, "register", await new SoftAuthenticator(ORIGIN).create(creation))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await ctx.adapter.getUserByEmail("new@example.com"))?.emailVerified).toBeNull()
  })
})
