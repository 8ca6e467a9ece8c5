import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { Adapter, AdapterUser, AdapterUserFields } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { APP, Harness, SECRET, e2eConfig, errorOf, idpProvider, useIdp } from "./harness.js"

const idp = useIdp()

interface Setup {
  adapter: ReturnType<typeof MemoryAdapter>
  config: AuthConfig & { errors: string[] }
  events: [string, unknown][]
  browser: () => Harness
}

function setup(options: { linkByEmail?: boolean; adapter?: Adapter; overrides?: Partial<AuthConfig> } = {}): Setup {
  const adapter = MemoryAdapter()
  const events: [string, unknown][] = []
  const record = (name: string) => (message: unknown) => {
    events.push([name, message])
  }
  const config = e2eConfig(
    [idpProvider(idp()), idpProvider(idp(), { id: "idp-second", name: "Second IdP", allowDangerousEmailAccountLinking: options.linkByEmail === true })],
    {
      adapter: options.adapter ?? adapter,
      events: { signIn: record("signIn"), signOut: record("signOut"), createUser: record("createUser"), linkAccount: record("linkAccount"), session: record("session") },
      ...options.overrides,
    },
  )
  return { adapter, config, events, browser: () => new Harness(config) }
}

/** Forgets the OP's login in this browser, so the next flow shows the login form again. */
function logOutOfIdp(h: Harness): void {
  for (const cookie of h.browser.cookies(idp().issuer)) h.browser.deleteCookie(idp().issuer, cookie.name, { path: cookie.path })
}

const BOB = { login: "bob@example.net", password: "bob-password" }

describe("sign-in with an adapter", () => {
  it("creates the user and links the account on first sign-in, with a database session", async () => {
    const { adapter, browser, events } = setup()
    const h = browser()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    const user = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    // Alice's IdP says it verified her email (email_verified: true), so the new user records it.
    expect(user).toMatchObject({ email: "alice@example.com", name: "Alice Example" })
    expect(user?.emailVerified).toBeInstanceOf(Date)
    const account = await adapter.getAccount("alice", "idp")
    expect(account).toMatchObject({ userId: user?.id, type: "oidc", token_type: "bearer" })
    expect(typeof account?.access_token).toBe("string")

    const sessionToken = h.browser.cookies(APP).find((c) => c.name === "authjs.session-token")?.value ?? ""
    expect(sessionToken).toMatch(/^[\w-]{43,}$/)
    expect((await adapter.getSessionAndUser(sessionToken))?.user.id).toBe(user?.id)
    expect(await h.session()).toMatchObject({ user: { id: user?.id, email: "alice@example.com" } })
    expect(events.map(([name]) => name)).toEqual(["createUser", "linkAccount", "signIn", "session"])
    expect(events[2]?.[1]).toMatchObject({ isNewUser: true, account: { provider: "idp" } })
  })

  it("signs a returning account in as the same user, creating nothing", async () => {
    const { adapter, browser, events } = setup()
    await browser().signIn()
    const again = browser()
    logOutOfIdp(again)
    await again.signIn()
    expect(await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).toMatchObject({ email: "alice@example.com" })
    expect(events.filter(([name]) => name === "createUser")).toHaveLength(1)
    expect(events.filter(([name]) => name === "signIn").at(-1)?.[1]).toMatchObject({ isNewUser: false })
  })

  it("refuses to link a new provider by email alone (rule R1)", async () => {
    const { adapter, browser } = setup()
    await browser().signIn("idp")
    const other = browser()
    const landed = await other.signIn("idp-second")
    expect(new URL(landed.url).pathname).toBe("/api/auth/signin")
    expect(errorOf(landed)).toBe("OAuthAccountNotLinked")
    expect(await adapter.getAccount("alice", "idp-second")).toBeNull()
    expect(await other.session()).toBeNull()
  })

  it("links by email when the provider sets allowDangerousEmailAccountLinking", async () => {
    const { adapter, browser } = setup({ linkByEmail: true })
    await browser().signIn("idp")
    await browser().signIn("idp-second")
    const first = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    const second = await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "alice" })
    expect(second?.id).toBe(first?.id)
  })

  it("does not link by an email the provider did not verify, even with allowDangerousEmailAccountLinking", async () => {
    // Bob's IdP account says email_verified: false; a user with his address exists already.
    const adapter = MemoryAdapter({ users: [{ id: "owner", email: "bob@example.net", emailVerified: new Date(), name: "Bob" }] })
    const { browser, config } = setup({ linkByEmail: true, adapter })
    const h = browser()
    const landed = await h.login(await h.startSignIn("idp-second"), BOB)
    expect(errorOf(landed)).toBe("OAuthAccountNotLinked")
    expect(await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "bob" })).toBeNull()
    expect(await h.session()).toBeNull()
    expect(config.errors.join("\n")).toMatch(/did not say it verified the email/)
  })

  it("does not link a verified account into a user who only claimed the address (a squatted passkey or unverified sign-up)", async () => {
    const adapter = MemoryAdapter({ users: [{ id: "squatter", email: "alice@example.com", emailVerified: null, name: "Not Alice" }] })
    const { browser, config } = setup({ linkByEmail: true, adapter })
    const h = browser()
    expect(errorOf(await h.signIn("idp-second"))).toBe("OAuthAccountNotLinked")
    expect(await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "alice" })).toBeNull()
    expect(config.errors.join("\n")).toMatch(/never verified/)
  })

  it("creates a user with an unverified email as unverified, so a later email link cannot take it over", async () => {
    const { adapter, browser } = setup()
    const h = browser()
    await h.login(await h.startSignIn("idp-second"), BOB)
    const user = await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "bob" })
    expect(user).toMatchObject({ email: "bob@example.net", emailVerified: null })
  })

  it("links another provider to the signed-in user", async () => {
    const { adapter, browser, events } = setup()
    const h = browser()
    await h.signIn("idp")
    await h.signIn("idp-second")
    const first = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    expect((await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "alice" }))?.id).toBe(first?.id)
    expect(events.filter(([name]) => name === "linkAccount")).toHaveLength(2)
  })

  it("V6.3.3: linking an account while signed in is no sign-in: it passes the second-factor gate and keeps the session's assurance", async () => {
    const { sealFactorSecret } = await import("../../src/factors/sealed-secret.js")
    const { newTotpSecret } = await import("../../src/factors/totp.js")
    const { adapter, browser } = setup({ overrides: { mfa: {} } })
    const h = browser()
    expect((await h.signIn("idp")).url).toBe(`${APP}/protected`)
    const before = (await h.session()) as { user: { id: string }; assurance: unknown }
    const userId = before.user.id
    await adapter.createAuthFactor({ id: "totp-1", userId, type: "totp", secret: await sealFactorSecret([SECRET], newTotpSecret(), userId), createdAt: new Date(), confirmedAt: new Date() })
    expect((await h.signIn("idp-second")).url).toBe(`${APP}/protected`)
    expect((await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "alice" }))?.id).toBe(userId)
    expect(((await h.session()) as { assurance: unknown }).assurance).toEqual(before.assurance)
    // A sign-in of the same user in a fresh browser is one, and is held.
    expect((await browser().signIn("idp-second")).url).toBe(`${APP}/api/auth/mfa`)
  })

  it("refuses to link an account that belongs to someone else to the signed-in user", async () => {
    const { adapter, browser } = setup()
    const bob = browser()
    await bob.login(await bob.startSignIn("idp-second"), BOB)
    const alice = browser()
    await alice.signIn("idp")
    logOutOfIdp(alice)
    const landed = await alice.login(await alice.startSignIn("idp-second"), BOB)
    expect(errorOf(landed)).toBe("OAuthAccountNotLinked")
    const bobUser = await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "bob" })
    expect(bobUser?.email).toBe("bob@example.net")
    expect(await alice.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("lets the signIn callback refuse or redirect, creating nothing", async () => {
    const refused = setup({ overrides: { callbacks: { signIn: () => false } } })
    const page = await refused.browser().signIn()
    expect(errorOf(page)).toBe("AccessDenied")
    expect(await refused.adapter.getUserByEmail("alice@example.com")).toBeNull()
    const redirected = setup({ overrides: { callbacks: { signIn: () => "/not-yet" } } })
    expect((await redirected.browser().signIn()).url).toBe(`${APP}/not-yet`)
    expect(await redirected.adapter.getUserByEmail("alice@example.com")).toBeNull()
  })

  it("keeps JWT sessions working with an adapter: users in the store, session in the cookie", async () => {
    const { adapter, browser } = setup({ overrides: { session: { strategy: "jwt" } } })
    const h = browser()
    await h.signIn()
    const user = await adapter.getUserByEmail("alice@example.com")
    expect(h.browser.cookies(APP).find((c) => c.name === "authjs.session-token")?.value).toMatch(/^eyJ/)
    expect(await h.session()).toMatchObject({ user: { id: user?.id } })
  })
})

describe("database sessions", () => {
  it("slides the expiry once updateAge has passed, and only then", async () => {
    const { adapter, browser } = setup({ overrides: { session: { maxAge: 3600, updateAge: 600 } } })
    const h = browser()
    await h.signIn()
    const token = h.browser.cookies(APP).find((c) => c.name === "authjs.session-token")?.value ?? ""
    const fresh = await h.browser.request(`${APP}/api/auth/session`)
    expect(fresh.headers.getSetCookie()).toEqual([])
    await adapter.updateSession({ sessionToken: token, expires: new Date(Date.now() + 1000_000) })
    const slid = await h.browser.request(`${APP}/api/auth/session`)
    expect(slid.headers.getSetCookie()[0]).toMatch(/^authjs\.session-token=.+; Expires=/)
    const stored = await adapter.getSessionAndUser(token)
    expect(stored?.session.expires.getTime()).toBeGreaterThan(Date.now() + 3500_000)
  })

  it("does not honour an expired session", async () => {
    const { adapter, browser } = setup()
    const h = browser()
    await h.signIn()
    const token = h.browser.cookies(APP).find((c) => c.name === "authjs.session-token")?.value ?? ""
    await adapter.updateSession({ sessionToken: token, expires: new Date(Date.now() - 1000) })
    expect(await h.session()).toBeNull()
    expect(await adapter.getSessionAndUser(token)).toBeNull()
  })

  it("deletes the session on sign-out", async () => {
    const { adapter, browser, events } = setup()
    const h = browser()
    await h.signIn()
    const token = h.browser.cookies(APP).find((c) => c.name === "authjs.session-token")?.value ?? ""
    await h.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await h.csrfToken() }),
      initiator: `${APP}/api/auth/signout`,
    })
    expect(await adapter.getSessionAndUser(token)).toBeNull()
    expect(await h.session()).toBeNull()
    expect(events.find(([name]) => name === "signOut")?.[1]).toMatchObject({ session: { sessionToken: token } })
  })
})

/**
 * The memory store answering as Auth.js's contract allows and its published adapters do:
 * nothing (`Promise<void>`) from deleteUser, linkAccount, unlinkAccount and deleteSession, as
 * @auth/pg-adapter's and @auth/prisma-adapter's, and users with Auth.js's fields only.
 */
function answeringAsAuthJs(store: ReturnType<typeof MemoryAdapter>): Adapter {
  const fieldsOf = (user: AdapterUser): AdapterUserFields => ({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, image: user.image })
  // Auth.js's adapters have no createUserWithAccount: core creates the user, then links the account.
  const { createUserWithAccount: _atomic, ...methods } = store
  return {
    ...methods,
    createUser: async (user) => fieldsOf(await store.createUser(user)),
    getUser: async (id) => {
      const user = await store.getUser(id)
      return user && fieldsOf(user)
    },
    getSessionAndUser: async (sessionToken) => {
      const found = await store.getSessionAndUser(sessionToken)
      return found && { session: found.session, user: fieldsOf(found.user) }
    },
    async deleteUser(id): Promise<void> {
      await store.deleteUser(id)
    },
    async linkAccount(account): Promise<void> {
      await store.linkAccount(account)
    },
    async unlinkAccount(key): Promise<void> {
      await store.unlinkAccount(key)
    },
    async deleteSession(sessionToken): Promise<void> {
      await store.deleteSession(sessionToken)
    },
  }
}

describe("an adapter answering as Auth.js's contract allows (nothing from deletes and links)", () => {
  it("signs in, links the account, reads the session and signs out", async () => {
    const store = MemoryAdapter()
    const { browser, events } = setup({ adapter: answeringAsAuthJs(store) })
    const h = browser()
    expect((await h.signIn()).url).toBe(`${APP}/protected`)
    const user = await store.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    expect(user).toMatchObject({ email: "alice@example.com" })
    expect(events.find(([name]) => name === "linkAccount")?.[1]).toMatchObject({ user: { id: user?.id }, account: { provider: "idp" } })
    expect(await h.session()).toMatchObject({ user: { id: user?.id, email: "alice@example.com" } })

    const token = h.browser.cookies(APP).find((c) => c.name === "authjs.session-token")?.value ?? ""
    const page = await h.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await h.csrfToken() }),
      initiator: `${APP}/api/auth/signout`,
    })
    expect(errorOf(page)).toBeNull()
    expect(await store.getSessionAndUser(token)).toBeNull()
    expect(h.browser.cookies(APP).some((c) => c.name === "authjs.session-token")).toBe(false)
    expect(await h.session()).toBeNull()
    // deleteSession answered nothing, so the event says there was no session record to hand over.
    expect(events.find(([name]) => name === "signOut")?.[1]).toEqual({ session: null })
  })

  it("removes the new user again when linking fails, though deleteUser answers nothing", async () => {
    const store = MemoryAdapter()
    const adapter = answeringAsAuthJs(store)
    let linkFails = true
    const { browser } = setup({
      adapter: {
        ...adapter,
        linkAccount: (account) => {
          if (linkFails) throw new Error("linkAccount is down")
          return adapter.linkAccount?.(account)
        },
      },
    })
    expect(errorOf(await browser().signIn())).toBe("AdapterError")
    expect(await store.getUserByEmail("alice@example.com")).toBeNull()
    linkFails = false
    expect((await browser().signIn()).url).toBe(`${APP}/protected`)
    expect(await store.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).toMatchObject({ email: "alice@example.com" })
  })
})

describe("adapter failures", () => {
  function failing(method: keyof Adapter, base: Adapter = MemoryAdapter()): Adapter {
    return {
      ...base,
      [method]: () => {
        throw new Error(`${method} is down`)
      },
    }
  }

  /** The memory adapter as one without createUserWithAccount: core calls createUser, then linkAccount. */
  function twoWrites(): Adapter {
    const { createUserWithAccount: _atomic, ...store } = MemoryAdapter()
    return store
  }

  for (const method of ["getUserByAccount", "getUserByEmail", "createUserWithAccount", "createUser", "createSession"] as const) {
    it(`shows AdapterError when ${method} fails, and starts no session`, async () => {
      const { config, browser } = setup({ adapter: failing(method, method === "createUser" ? twoWrites() : MemoryAdapter()) })
      const h = browser()
      const page = await h.signIn()
      expect(errorOf(page)).toBe("AdapterError")
      expect(new URL(page.url).pathname).toBe("/api/auth/error")
      expect(config.errors.join("\n")).toMatch(new RegExp(method))
      expect(h.browser.cookies(APP).some((c) => c.name === "authjs.session-token")).toBe(false)
    })
  }

  it("removes the new user again when linking the account fails, so a retry works", async () => {
    const store = MemoryAdapter()
    let linkFails = true
    const adapter: Adapter = {
      ...store,
      createUserWithAccount: undefined,
      linkAccount: (account) => {
        if (linkFails) throw new Error("linkAccount is down")
        return store.linkAccount(account)
      },
    }
    const { browser } = setup({ adapter })
    expect(errorOf(await browser().signIn())).toBe("AdapterError")
    expect(await store.getUserByEmail("alice@example.com")).toBeNull()
    linkFails = false
    expect((await browser().signIn()).url).toBe(`${APP}/protected`)
    expect(await store.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).toMatchObject({ email: "alice@example.com" })
  })

  it("answers GET /session with a JSON AdapterError when the store is down, never a 500", async () => {
    const store = MemoryAdapter()
    let down = false
    const adapter: Adapter = {
      ...store,
      getSessionAndUser: (token) => {
        if (down) throw new Error("store is down")
        return store.getSessionAndUser(token)
      },
    }
    const { browser } = setup({ adapter })
    const h = browser()
    await h.signIn()
    down = true
    const response = await h.browser.request(`${APP}/api/auth/session`)
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "AdapterError" })
    down = false
    expect(await h.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("keeps the session when deleting it on sign-out fails", async () => {
    const { browser } = setup({ adapter: failing("deleteSession") })
    const h = browser()
    await h.signIn()
    const page = await h.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await h.csrfToken() }),
      initiator: `${APP}/api/auth/signout`,
    })
    expect(errorOf(page)).toBe("AdapterError")
    expect(await h.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })
})
