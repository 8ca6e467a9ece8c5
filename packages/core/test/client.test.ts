import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { changeEmail, deleteAccount, getAccounts, getCsrfToken, getProviders, getSession, reauthenticate, signIn, signOut, unlinkAccount } from "../src/client.js"
import { encode } from "../src/session/jwt.js"
import { Auth, type AuthConfig } from "../src/index.js"
import { Jar, ORIGIN, PASSWORD, SECRET, acmeProvider, passwordProvider, testConfig, storeSession } from "./helpers.js"

// The browser boundary: fetch goes to Auth() in-process with a cookie jar, location is recorded.

/** Routes the client's `fetch` to `Auth()` with `config`, carrying `jar`'s cookies as a browser would. */
function stubFetch(jar: Jar, config: AuthConfig): void {
  vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    if (jar.cookies.size > 0) headers.set("cookie", jar.header())
    const response = await Auth(new Request(new URL(input, ORIGIN), { ...init, headers }), config)
    jar.store(response)
    return response
  })
}
describe("@portcullis/core/client", () => {
  const config = testConfig({ providers: [acmeProvider(), passwordProvider()] })
  let jar: Jar
  let assigned: string[]

  beforeEach(() => {
    jar = new Jar()
    assigned = []
    stubFetch(jar, config)
    vi.stubGlobal("location", { href: `${ORIGIN}/page`, assign: (url: string) => assigned.push(url) })
  })

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("reads providers, a CSRF token and the session", async () => {
    expect(Object.keys(await getProviders())).toEqual(["acme", "credentials"])
    expect(await getCsrfToken()).toMatch(/^[\w-]{43}$/)
    expect(await getSession()).toBeNull()
    jar.cookies.set("authjs.session-token", await encode({ token: { name: "Ada" }, secret: SECRET, salt: "authjs.session-token", maxAge: 60 }))
    expect(await getSession()).toMatchObject({ user: { name: "Ada" } })
  })

  it("signs in by posting the CSRF token and navigating to the provider", async () => {
    await signIn("acme", { callbackUrl: "/after" }, { login_hint: "ada@example.com" })
    expect(assigned).toHaveLength(1)
    const url = new URL(assigned[0] ?? "")
    expect(url.host).toBe("acme.example")
    expect(url.searchParams.get("login_hint")).toBe("ada@example.com")
  })

  it("returns the target instead of navigating with redirect: false, and reports errors", async () => {
    const result = await signIn("nobody", { redirect: false })
    expect(result).toMatchObject({ ok: false, error: "InvalidProvider" })
    expect(assigned).toEqual([])
  })

  it("signs in with credentials by posting the fields to the provider's callback", async () => {
    const result = await signIn("credentials", { username: "ada", password: PASSWORD, callbackUrl: "/home", redirect: false })
    expect(result).toEqual({ ok: true, error: null, url: `${ORIGIN}/home` })
    expect(await getSession()).toMatchObject({ user: { id: "user-ada", name: "Ada Lovelace" } })
  })

  it("V6.3.3: answers SecondFactorRequired with the challenge's URL to a sign-in that pends, and getSession stays null", async () => {
    const { sealFactorSecret } = await import("../src/factors/sealed-secret.js")
    const { newTotpSecret } = await import("../src/factors/totp.js")
    const adapter = MemoryAdapter({
      users: [{ id: "user-ada", email: "ada@example.com", emailVerified: null }],
      authFactors: [{ id: "t1", userId: "user-ada", type: "totp", secret: await sealFactorSecret([SECRET], newTotpSecret(), "user-ada"), createdAt: new Date(), confirmedAt: new Date() }],
    })
    stubFetch(jar, testConfig({ adapter, providers: [passwordProvider()], mfa: {} }))
    const result = await signIn("credentials", { username: "ada", password: PASSWORD, callbackUrl: "/home", redirect: false })
    expect(result).toEqual({ ok: false, error: "SecondFactorRequired", url: `${ORIGIN}/api/auth/mfa` })
    expect(await getSession()).toBeNull()
    // Navigating, it goes to the challenge.
    await signIn("credentials", { username: "ada", password: PASSWORD, callbackUrl: "/home" })
    expect(assigned).toEqual([`${ORIGIN}/api/auth/mfa`])
  })

  it("reports a refused credentials sign-in without navigating", async () => {
    const result = await signIn("credentials", { username: "ada", password: "guess", redirect: false })
    expect(result).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(new URL(result?.url ?? "").searchParams.get("code")).toBe("credentials")
    expect(assigned).toEqual([])
  })

  it("V7.5.1: reauthenticate() navigates to the re-authentication page, back to this page or callbackUrl", async () => {
    await reauthenticate()
    expect(assigned).toEqual([`${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(`${ORIGIN}/page`)}`])
    expect(await reauthenticate({ callbackUrl: "/settings", redirect: false })).toEqual({ url: `${ORIGIN}/api/auth/reauth?callbackUrl=%2Fsettings` })
    expect(assigned).toHaveLength(1)
  })

  it("signs out and clears the session cookie", async () => {
    jar.cookies.set("authjs.session-token", await encode({ token: { name: "Ada" }, secret: SECRET, salt: "authjs.session-token", maxAge: 60 }))
    await signOut({ callbackUrl: "/bye" })
    expect(assigned).toEqual([`${ORIGIN}/bye`])
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
  })
})

// The same boundary, for a user with linked accounts in the store and a database session.
describe("@portcullis/core/client: linked accounts", () => {
  let jar: Jar

  beforeEach(async () => {
    jar = new Jar()
    const store = MemoryAdapter()
    const config = testConfig({ adapter: store, session: { strategy: "database" }, providers: [acmeProvider()] })
    stubFetch(jar, config)
    const user = await store.createUser({ email: null, emailVerified: null })
    for (const id of ["a-1", "a-2"]) await store.linkAccount({ userId: user.id, type: "oauth", provider: "acme", providerAccountId: id, access_token: `secret-token-${id}` })
    await storeSession(store, { sessionToken: `session-${user.id}`, userId: user.id, expires: new Date(Date.now() + 3_600_000) }, { methods: ["fed"] })
    jar.cookies.set("authjs.session-token", `session-${user.id}`)
  })

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("lists the accounts without their tokens", async () => {
    const accounts = await getAccounts()
    expect(accounts.map((account) => account.providerAccountId).sort()).toEqual(["a-1", "a-2"])
    expect(accounts.every((account) => !account.lastSignInMethod)).toBe(true)
    expect(JSON.stringify(accounts)).not.toContain("secret-token")
  })

  it("unlinks one named by providerAccountId, asks for it among several, and keeps the last", async () => {
    expect(await unlinkAccount("acme")).toEqual({ ok: false, error: "UnknownAccount" })
    expect(await unlinkAccount("acme", { providerAccountId: "a-1" })).toEqual({ ok: true, error: null, unlinked: { provider: "acme", providerAccountId: "a-1" } })
    expect((await getAccounts()).map(({ providerAccountId, lastSignInMethod }) => [providerAccountId, lastSignInMethod])).toEqual([["a-2", true]])
    expect(await unlinkAccount("acme")).toEqual({ ok: false, error: "LastSignInMethod" })
  })

  it("V7.5.1: reports ReauthRequired with the re-authentication page's url once the authentication is stale", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 601_000)
    try {
      const result = await unlinkAccount("acme", { providerAccountId: "a-1" })
      expect(result).toMatchObject({ ok: false, error: "ReauthRequired" })
      expect(result.url).toMatch(`${ORIGIN}/api/auth/reauth?callbackUrl=`)
    } finally {
      vi.useRealTimers()
    }
  })

  it("reports SignInRequired when signed out", async () => {
    jar.cookies.clear()
    expect(await unlinkAccount("acme")).toEqual({ ok: false, error: "SignInRequired" })
    await expect(getAccounts()).rejects.toThrow(/401/)
  })
})

// The account settings, for a stored user with a passkey and a fresh database session.
describe("@portcullis/core/client: account settings", () => {
  let jar: Jar
  let store: ReturnType<typeof MemoryAdapter>
  let mails: string[]
  let signalled: unknown[]

  beforeEach(async () => {
    jar = new Jar()
    mails = []
    signalled = []
    store = MemoryAdapter()
    const config = testConfig({ adapter: store, session: { strategy: "database" }, providers: [acmeProvider()], mail: { send: ({ to }) => void mails.push(to) } })
    stubFetch(jar, config)
    vi.stubGlobal("location", { href: `${ORIGIN}/settings`, assign: () => undefined })
    vi.stubGlobal("PublicKeyCredential", { signalUnknownCredential: (options: unknown) => Promise.resolve(void signalled.push(options)) })
    const user = await store.createUser({ email: "ada@example.com", emailVerified: null })
    await store.linkAccount({ userId: user.id, type: "webauthn", provider: "passkey", providerAccountId: "ada-passkeys" })
    await store.createAuthenticator({ credentialID: "cred-1", userId: user.id, providerAccountId: "ada-passkeys", credentialPublicKey: "cHVi", counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true })
    await storeSession(store, { sessionToken: `session-${user.id}`, userId: user.id, expires: new Date(Date.now() + 3_600_000) }, { methods: ["fed"] })
    jar.cookies.set("authjs.session-token", `session-${user.id}`)
  })

  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it("changeEmail() asks for the change: a link goes to the new address", async () => {
    expect(await changeEmail("ada@new.example")).toEqual({ ok: true, error: null })
    expect(mails).toEqual(["ada@new.example"])
  })

  it("V7.5.1: changeEmail() and deleteAccount() report ReauthRequired with the re-authentication page's url once the authentication is stale", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 601_000)
    for (const result of [await changeEmail("ada@new.example"), await deleteAccount()]) {
      expect(result).toMatchObject({ ok: false, error: "ReauthRequired" })
      expect(result.url).toMatch(`${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings`)}`)
    }
    expect(mails).toEqual([])
  })

  it("deleteAccount() deletes the account, signs this browser out, and signals the deleted passkey (WebAuthn signalUnknownCredential)", async () => {
    expect(await deleteAccount()).toEqual({ ok: true, error: null })
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
    expect(await store.getUserByEmail("ada@example.com")).toBeNull()
    expect(signalled).toEqual([{ rpId: "localhost", credentialId: "cred-1" }])
  })
})
