// Unlinking an account (`POST /accounts/unlink`, the server's `unlinkAccount`) against the real
// OpenID Provider: the account leaves the store and, under `revokeTokensOnSignOut`, its refresh
// token is revoked there (RFC 7009) and no longer works; the user's last way to sign in is never
// unlinked; hostile requests get typed 4xx answers and unlink nothing.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it, vi } from "vitest"
import type { AdapterAccount } from "../../src/adapters.js"
import { unlinkAccount } from "../../src/index.js"
import type { AuditEvent, AuthConfig, MailMessage } from "../../src/types.js"
import { APP, CLIENT, Harness, e2eConfig, idpProvider, useIdp } from "./harness.js"

const idp = useIdp({ consent: "auto" })
const UNLINK = `${APP}/api/auth/accounts/unlink`
const BOB = { login: "bob@example.net", password: "bob-password" }

interface Setup {
  config: AuthConfig & { errors: string[]; unlinked: AdapterAccount[]; audits: AuditEvent[] }
  store: ReturnType<typeof MemoryAdapter>
}

/** The IdP as two providers (`idp` revokes its tokens, `idp-second` does not), with the memory store and database sessions. */
function setup(overrides: Partial<AuthConfig> = {}, store = MemoryAdapter()): Setup {
  const unlinked: AdapterAccount[] = []
  const audits: AuditEvent[] = []
  const config = e2eConfig([idpProvider(idp(), { revokeTokensOnSignOut: true }), idpProvider(idp(), { id: "idp-second", name: "Second" })], {
    adapter: store,
    session: { strategy: "database" },
    events: { unlinkAccount: ({ account }) => void unlinked.push(account), audit: (event) => void audits.push(event) },
    ...overrides,
  })
  return { config: Object.assign(config, { unlinked, audits }), store }
}

async function userIdOf(harness: Harness): Promise<string> {
  return ((await harness.session()) as { user: { id: string } }).user.id
}

/** Posts the unlink form (with this browser's CSRF token unless `csrf` is false). */
async function unlink(harness: Harness, fields: Record<string, string>, csrf = true): Promise<Response> {
  const form = new URLSearchParams(fields)
  if (csrf) form.set("csrfToken", await harness.csrfToken())
  return harness.browser.request(UNLINK, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form, initiator: `${APP}/settings` })
}

/** Signs Alice in with `idp`, then links her `idp-second` account while signed in. */
async function aliceWithTwoAccounts(config: AuthConfig): Promise<Harness> {
  const harness = new Harness(config)
  await harness.signIn("idp")
  await harness.signIn("idp-second")
  return harness
}

/** A refresh grant at the IdP with the app's client credentials. */
async function refreshAtIdp(refreshToken: string): Promise<{ status: number; body: { error?: string } }> {
  const response = await fetch(`${idp().issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${CLIENT.id}:${CLIENT.secret}`)}` },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  })
  return { status: response.status, body: (await response.json()) as { error?: string } }
}

describe("unlinking an account", () => {
  it("unlinks it, revokes its refresh token at the provider, which then refuses it, and keeps the user signed in", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const userId = await userIdOf(harness)
    const before = (await store.listAccountsByUserId(userId)).find((account) => account.provider === "idp")
    const refreshToken = before?.refresh_token ?? ""
    expect(refreshToken.length).toBeGreaterThan(10)

    const response = await unlink(harness, { provider: "idp" })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ unlinked: { provider: "idp", providerAccountId: before?.providerAccountId } })

    expect((await store.listAccountsByUserId(userId)).map((account) => account.provider)).toEqual(["idp-second"])
    expect(idp().revocations.find((record) => record.tokenTypeHint === "refresh_token")).toMatchObject({ token: refreshToken, revoked: "refresh_token", status: 200 })
    expect(idp().revocations.map((record) => record.tokenTypeHint).sort()).toEqual(["access_token", "refresh_token"])
    expect(await refreshAtIdp(refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect(config.unlinked).toEqual([expect.objectContaining({ provider: "idp", userId, refresh_token: refreshToken })])
    expect(await harness.session()).toMatchObject({ user: { email: "alice@example.com" } })
    expect(config.errors).toEqual([])
    // Linking while signed in is a step of that sign-in; the unlink an operation of its own (ASVS V16.3.1).
    expect(config.audits.map((event) => [event.type, event.outcome, event.provider, event.userId])).toEqual([
      ["signIn", "success", "idp", userId],
      ["accountLink", "success", "idp-second", userId],
      ["signIn", "success", "idp-second", userId],
      ["accountUnlink", "success", "idp", userId],
    ])
  })

  it("takes JSON, and revokes nothing for a provider without revokeTokensOnSignOut", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const response = await harness.browser.request(UNLINK, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: await harness.csrfToken(), provider: "idp-second", providerAccountId: "alice" }),
      initiator: `${APP}/settings`,
    })
    expect(response.status).toBe(200)
    expect((await store.listAccountsByUserId(await userIdOf(harness))).map((account) => account.provider)).toEqual(["idp"])
    expect(idp().revocations).toEqual([])
  })

  it("unlinks all the same when the provider refuses the revocation, logging it without the token", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const userId = await userIdOf(harness)
    const token = (await store.listAccountsByUserId(userId)).find((account) => account.provider === "idp")?.refresh_token ?? ""
    idp().onRevocationResponse(() => ({ status: 503, body: { error: "temporarily_unavailable" } }))
    expect((await unlink(harness, { provider: "idp" })).status).toBe(200)
    expect((await store.listAccountsByUserId(userId)).map((account) => account.provider)).toEqual(["idp-second"])
    expect(config.errors.join("\n")).toMatch(/OAuthSignInError: .*revok/i)
    expect(token.length).toBeGreaterThan(10)
    expect(config.errors.join("\n")).not.toContain(token)
  })

  it("does not wait for a provider that is slow to revoke", async () => {
    const { config } = setup()
    const harness = await aliceWithTwoAccounts(config)
    idp().delay("revocation", 10_000)
    const started = Date.now()
    expect((await unlink(harness, { provider: "idp" })).status).toBe(200)
    expect(Date.now() - started).toBeLessThan(6_000)
  })
})

describe("linking an account while signed in keeps the session", () => {
  for (const strategy of ["database", "jwt"] as const) {
    it(`${strategy}: the same session goes on, with one entry in the devices list, and the old cookie is not left behind as another device`, async () => {
      const { config } = setup({ session: { strategy } })
      const harness = new Harness(config)
      await harness.signIn("idp")
      const list = async () => (await (await harness.browser.request(`${APP}/api/auth/sessions`)).json()) as { id: string; current: boolean }[]
      const before = await list()
      expect(before).toHaveLength(1)
      await harness.signIn("idp-second")
      expect((await list()).map(({ id, current }) => ({ id, current }))).toEqual(before.map(({ id, current }) => ({ id, current })))
      expect(config.errors).toEqual([])
    })
  }
})

describe("notices of linked and unlinked accounts (OWASP ASVS v5 6.3.7)", () => {
  it("mails the owner once an account is linked while signed in or unlinked, naming the provider, with no link or code; a new user's first account sends none", async () => {
    const mails: MailMessage[] = []
    const { config } = setup({ mail: { send: (message) => void mails.push(message) } })
    const harness = new Harness(config)
    await harness.signIn("idp")
    expect(mails).toEqual([])

    await harness.signIn("idp-second")
    expect(mails.map(({ to, kind, subject }) => [to, kind, subject])).toEqual([["alice@example.com", "notice", "Your Second account was linked"]])

    expect((await unlink(harness, { provider: "idp" })).status).toBe(200)
    expect(mails.map(({ to, kind, subject }) => [to, kind, subject])).toEqual([
      ["alice@example.com", "notice", "Your Second account was linked"],
      ["alice@example.com", "notice", "Your Demo IdP account was unlinked"],
    ])
    for (const mail of mails) {
      expect(mail.url).toBeUndefined()
      expect(mail.code).toBeUndefined()
      expect(`${mail.text} ${mail.html}`).not.toMatch(/https?:|\/api\/auth|token|\b\d{6}\b/i)
    }
  })

  it("sends none for an unlink that was refused (the user's last way in)", async () => {
    const mails: MailMessage[] = []
    const { config } = setup({ mail: { send: (message) => void mails.push(message) } })
    const harness = new Harness(config)
    await harness.signIn("idp")
    expect((await unlink(harness, { provider: "idp" })).status).toBe(400)
    expect(mails).toEqual([])
  })
})

describe("listing the accounts a user may unlink", () => {
  it("lists them without tokens, saying which one is the last way in", async () => {
    const { config } = setup()
    const harness = new Harness(config)
    await harness.signIn("idp")
    const one = await harness.browser.request(`${APP}/api/auth/accounts`)
    expect(one.status).toBe(200)
    expect(one.headers.get("cache-control")).toContain("no-store")
    expect(await one.json()).toEqual({ accounts: [{ provider: "idp", providerAccountId: "alice", type: "oidc", lastSignInMethod: true }] })
    await harness.signIn("idp-second")
    const two = (await (await harness.browser.request(`${APP}/api/auth/accounts`)).json()) as { accounts: { provider: string; lastSignInMethod: boolean }[] }
    expect(two.accounts.map(({ provider, lastSignInMethod }) => [provider, lastSignInMethod]).sort()).toEqual([["idp", false], ["idp-second", false]])
    expect(JSON.stringify(two)).not.toMatch(/token/i)
  })

  it("answers 401 SignInRequired when nobody is signed in, and 405 to POST", async () => {
    const { config } = setup()
    const harness = new Harness(config)
    const response = await harness.browser.request(`${APP}/api/auth/accounts`)
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: "SignInRequired" })
    expect((await harness.browser.request(`${APP}/api/auth/accounts`, { method: "POST", body: "" })).status).toBe(405)
  })
})

describe("the last way in", () => {
  it("refuses to unlink the user's only account with 400 LastSignInMethod, keeping it and its tokens", async () => {
    const { config, store } = setup()
    const harness = new Harness(config)
    await harness.signIn("idp")
    const userId = await userIdOf(harness)
    const response = await unlink(harness, { provider: "idp" })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "LastSignInMethod" })
    const [account] = await store.listAccountsByUserId(userId)
    expect(account).toMatchObject({ provider: "idp", refresh_token: expect.any(String) as unknown })
    expect(idp().revocations).toEqual([])
    expect(config.unlinked).toEqual([])
    expect(config.audits.at(-1)).toMatchObject({ type: "accountUnlink", outcome: "failure", reason: "lastSignInMethod", provider: "idp", userId })
  })

  it("counts a verified email address when an email provider is configured", async () => {
    const email = { id: "email", name: "Email", type: "email" as const, from: "auth@example.com", sendVerificationRequest: () => Promise.resolve() }
    const { config, store } = setup()
    config.providers = [...config.providers, email]
    const harness = new Harness(config)
    await harness.signIn("idp")
    // The IdP vouched for alice@example.com: a sign-in link can reach her.
    expect((await unlink(harness, { provider: "idp" })).status).toBe(200)
    expect(await store.listAccountsByUserId(await userIdOf(harness))).toEqual([])
  })

  it("does not count an email address the provider never verified", async () => {
    const email = { id: "email", name: "Email", type: "email" as const, from: "auth@example.com", sendVerificationRequest: () => Promise.resolve() }
    const { config } = setup()
    config.providers = [...config.providers, email]
    const harness = new Harness(config)
    await harness.login(await harness.startSignIn("idp"), BOB)
    expect(await (await unlink(harness, { provider: "idp" })).json()).toMatchObject({ error: "LastSignInMethod" })
  })

  it("keeps one of two accounts when both are unlinked at once", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const userId = await userIdOf(harness)
    const answers = await Promise.all([unlink(harness, { provider: "idp" }), unlink(harness, { provider: "idp-second" })])
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1)
    expect(statuses.every((status) => status === 200 || status === 400)).toBe(true)
    expect((await store.listAccountsByUserId(userId)).length).toBeGreaterThanOrEqual(1)
  })

  it("lets server code that vouches for another way in (a password) unlink the last account", async () => {
    const { config, store } = setup()
    const harness = new Harness(config)
    await harness.signIn("idp")
    const userId = await userIdOf(harness)
    const cookie = harness.browser.cookies(`${APP}/`).map(({ name, value }) => `${name}=${value}`).join("; ")
    const request = new Request(`${APP}/settings`, { method: "POST", headers: { cookie } })
    const refused = await unlinkAccount(request, config, { provider: "idp" })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: "LastSignInMethod" })
    const done = await unlinkAccount(request, config, { provider: "idp", otherSignInMethod: true })
    expect(done.status).toBe(200)
    expect(await store.listAccountsByUserId(userId)).toEqual([])
    expect(idp().revocations.some((record) => record.revoked === "refresh_token")).toBe(true)
  })
})

describe("hostile unlink requests", () => {
  it("answers an unknown provider and another user's account alike, and unlinks neither", async () => {
    const { config, store } = setup()
    const bob = new Harness(config)
    await bob.login(await bob.startSignIn("idp"), BOB)
    const bobId = await userIdOf(bob)
    const alice = await aliceWithTwoAccounts(config)

    const answers = [
      await unlink(alice, { provider: "no-such-provider" }),
      await unlink(alice, { provider: "idp", providerAccountId: "bob" }),
      await unlink(alice, { provider: "email" }),
      await unlink(alice, {}),
      await unlink(alice, { provider: "x".repeat(5000) }),
    ]
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400])
    for (const body of bodies) expect(body).toEqual(bodies[0])
    expect(bodies[0]).toMatchObject({ error: "UnknownAccount" })
    expect(await store.listAccountsByUserId(bobId)).toHaveLength(1)
    expect(await store.listAccountsByUserId(await userIdOf(alice))).toHaveLength(2)
  })

  it("answers 401 SignInRequired when nobody is signed in", async () => {
    const { config } = setup()
    const harness = new Harness(config)
    const response = await unlink(harness, { provider: "idp" })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: "SignInRequired" })
  })

  it("answers 403 MissingCSRF without the CSRF token, and unlinks nothing", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const response = await unlink(harness, { provider: "idp" }, false)
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "MissingCSRF" })
    const forged = await unlink(harness, { provider: "idp", csrfToken: "forged" }, false)
    expect(forged.status).toBe(403)
    expect(await store.listAccountsByUserId(await userIdOf(harness))).toHaveLength(2)
  })

  it("refuses a huge body, another action and GET with 4xx, never 500", async () => {
    const { config } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const huge = await harness.browser.request(UNLINK, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `provider=${"a".repeat(200_000)}`,
      initiator: `${APP}/settings`,
    })
    expect(huge.status).toBe(400)
    expect(await huge.json()).toMatchObject({ error: "UnknownAction" })
    const other = await harness.browser.request(`${APP}/api/auth/accounts/delete`, { method: "POST", body: "", initiator: `${APP}/settings` })
    expect(other.status).toBe(400)
    expect((await harness.browser.request(UNLINK)).status).toBe(405)
  })

  it("names the missing adapter methods with a 503 Configuration answer, for this route only", async () => {
    const { listAccountsByUserId: _list, ...adapter } = MemoryAdapter()
    // Without `revokeTokensOnSignOut`, whose start-up check names `listAccountsByUserId` itself.
    const { config } = setup({ adapter, providers: [idpProvider(idp())] })
    const harness = new Harness(config)
    await harness.signIn("idp")
    const response = await unlink(harness, { provider: "idp" })
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    expect(config.errors.join("\n")).toMatch(/Unlinking an account.*`listAccountsByUserId`/)
  })
})

describe("a stale session changing the ways in (issue 38)", () => {
  /** Runs `step` with the clock `seconds` ahead: the session's authentication is that old then. */
  async function later<T>(seconds: number, step: () => Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + seconds * 1000)
    try {
      return await step()
    } finally {
      vi.useRealTimers()
    }
  }

  it("V7.5.1: POST /accounts/unlink answers 403 ReauthRequired past session.reauthAge, audited, and unlinks nothing", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const userId = await userIdOf(harness)
    const csrfToken = await harness.csrfToken()
    const response = await later(601, () =>
      harness.browser.request(UNLINK, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: new URLSearchParams({ provider: "idp", csrfToken }), initiator: `${APP}/settings` }),
    )
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ error: "ReauthRequired", url: `${APP}/api/auth/reauth?callbackUrl=${encodeURIComponent(APP)}` })
    expect((await store.listAccountsByUserId(userId)).map((account) => account.provider).sort()).toEqual(["idp", "idp-second"])
    expect(config.audits.at(-1)).toMatchObject({ type: "accountUnlink", outcome: "failure", reason: "reauthRequired", userId })
    expect(idp().revocations).toEqual([])
  })

  it("V7.5.1: the server's unlinkAccount() answers 403 ReauthRequired JSON for a stale session", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const userId = await userIdOf(harness)
    const cookie = harness.browser.cookies(`${APP}/`).map(({ name, value }) => `${name}=${value}`).join("; ")
    const refused = await later(601, () => unlinkAccount(new Request(`${APP}/settings`, { method: "POST", headers: { cookie, accept: "text/html" } }), config, { provider: "idp" }))
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: "ReauthRequired" })
    expect(await store.listAccountsByUserId(userId)).toHaveLength(2)
  })

  it("V7.5.1: linking another account while signed in is refused before the redirect to the provider (a stolen session adds no account)", async () => {
    const { config, store } = setup()
    const harness = new Harness(config)
    await harness.signIn("idp")
    const userId = await userIdOf(harness)
    const csrfToken = await harness.csrfToken()
    const response = await later(601, () =>
      harness.browser.request(`${APP}/api/auth/signin/idp-second`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl: `${APP}/settings` }),
        initiator: `${APP}/settings`,
      }),
    )
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${APP}/api/auth/reauth?callbackUrl=${encodeURIComponent(`${APP}/settings`)}`)
    expect(response.headers.getSetCookie().some((cookie) => /state|pkce|nonce/.test(cookie.split("=")[0] ?? ""))).toBe(false)
    expect(config.audits.at(-1)).toMatchObject({ type: "signIn", outcome: "failure", reason: "reauthRequired", userId })
    expect((await store.listAccountsByUserId(userId)).map((account) => account.provider)).toEqual(["idp"])
  })

  it("a stale session's user may still sign in afresh once signed out: the check is only for linking", async () => {
    const { config } = setup()
    const harness = new Harness(config)
    await harness.signIn("idp")
    const fresh = new Harness(config)
    const page = await later(601, () => fresh.startSignIn("idp-second"))
    expect(new URL(page.url).origin).not.toBe(APP)
  })
})

describe("deleting the account (issue 38)", () => {
  it("revokes each linked account's tokens at the provider under revokeTokensOnSignOut, then deletes the user and ends the session", async () => {
    const { config, store } = setup()
    const harness = await aliceWithTwoAccounts(config)
    const userId = await userIdOf(harness)
    const refreshToken = (await store.listAccountsByUserId(userId)).find((account) => account.provider === "idp")?.refresh_token ?? ""
    expect(refreshToken.length).toBeGreaterThan(10)
    const form = new URLSearchParams({ csrfToken: await harness.csrfToken() })
    const response = await harness.browser.request(`${APP}/api/auth/account/delete`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: form,
      initiator: `${APP}/settings`,
    })
    expect(response.status).toBe(200)
    expect(idp().revocations.find((record) => record.token === refreshToken)).toMatchObject({ revoked: "refresh_token", status: 200 })
    expect(await refreshAtIdp(refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect(await store.getUser(userId)).toBeNull()
    expect(await harness.session()).toBeNull()
    expect(config.audits.at(-1)).toMatchObject({ type: "accountDelete", outcome: "success", userId })
  })
})
