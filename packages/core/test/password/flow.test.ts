/**
 * `Password()` through the flow contract: what `Auth()` checks at start, the routes it serves
 * only with such a provider, the per-client limit of its routes, the password as a way in, and
 * the rule that an unconfirmed password account never becomes a way into its address owner's
 * account (a provider or an email link that proves the address replaces it).
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it, vi } from "vitest"
import { parseForms } from "@portcullis/test-kit/browser"
import { resolveConfig } from "../../src/config/config.js"
import { emailProvider } from "../../src/email/index.js"
import { createContext } from "../../src/http/context.js"
import type { SendVerificationRequestParams } from "../../src/providers/types.js"
import { resolveUser } from "../../src/sign-in/accounts.js"
import { waysIn } from "../../src/sign-in/ways-in.js"
import { reauthWays } from "../../src/reauth/ways.js"
import { Jar, ORIGIN, call, configError, location, testConfig } from "../helpers.js"
import { GOOD_PASSWORD, passwordApp, passwordProviderConfig, post, signIn, signUpVerified } from "./harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))

async function contextOf(app: ReturnType<typeof passwordApp>) {
  const internal = await resolveConfig(app)
  return createContext(internal, new Request(`${ORIGIN}/api/auth/callback/github`), new URL(`${ORIGIN}/api/auth/callback/github`))
}

/** What a provider that vouches for the address hands the linking rules. */
function githubSignIn(email: string) {
  return {
    accountUser: null,
    profileUser: { id: "gh-1", email, name: "Ada" },
    account: { provider: "github", type: "oauth" as const, providerAccountId: "1" },
    profile: { email, email_verified: true },
    emailVerified: true,
    allowEmailLinking: false,
    signedInUserId: undefined,
  }
}

describe("Password() and the flow contract", () => {
  it("is refused at start with an adapter that keeps no session records, naming the methods", async () => {
    const { createSessionRecord: _c, getSessionRecord: _g, listSessionRecords: _l, updateSessionRecord: _u, useOnce: _o, ...adapter } = MemoryAdapter()
    const message = await configError(testConfig({ adapter, providers: [passwordProviderConfig({ store: { get: () => null, set: () => undefined } })] }))
    expect(message).toMatch(/^Configuration: The `adapter` is missing methods this configuration calls: .*createSessionRecord, getSessionRecord, listSessionRecords, updateSessionRecord, useOnce/)
    expect(await configError(testConfig({ providers: [passwordProviderConfig()] }))).toMatch(/needs an `adapter`/)
  })

  it("answers /password/* 404 when no Password() provider is configured", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/password/signup", { headers: { accept: "application/json" } })
    expect(response.status).toBe(404)
    const served = await call(passwordApp(), new Jar(), "/api/auth/password/signup")
    expect(served.status).toBe(200)
    expect(await call(passwordApp(), new Jar(), "/api/auth/password/constructor", { headers: { accept: "application/json" } })).toHaveProperty("status", 404)
  })

  it("counts sign-up, reset request, reset and change posts against the per-client `password` rule (ASVS 6.3.1)", async () => {
    for (const route of ["signup", "reset-request", "reset", "change"]) {
      // One allowance for the four routes: each gets an app of its own.
      const app = passwordApp({}, { clientAddress: () => "203.0.113.9", rateLimit: { perClient: { password: { limit: 2 } } } })
      const jar = new Jar()
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await post(app, jar, `/api/auth/password/${route}`, { email: "x" }, { accept: "application/json" })).status)
      expect(statuses.slice(0, 2)).not.toContain(429)
      expect(statuses[2]).toBe(429)
      // The pages themselves are not counted.
      expect((await call(app, jar, `/api/auth/password/${route}`)).status).not.toBe(429)
    }
  })

  it("counts a password as a way in once it can sign in", async () => {
    const app = passwordApp()
    const userId = await signUpVerified(app, "ada@example.com")
    const context = await contextOf(app)
    expect(await waysIn(context, context.config.adapter as never, userId)).toEqual([{ kind: "password", provider: "password" }])
  })

  it("offers the password on the re-authentication page only to a user who has one", async () => {
    const app = passwordApp()
    const userId = await signUpVerified(app, "ada@example.com")
    const other = await app.adapter.createUser({ id: "u-oauth", email: "oauth@example.com", emailVerified: new Date() })
    const context = await contextOf(app)
    expect((await reauthWays(context, userId)).map((way) => way.provider?.id)).toEqual(["password"])
    expect(await reauthWays(context, other.id)).toEqual([])
  })

  it("replaces an unconfirmed password account when a provider that vouches for the address signs in, never linking it", async () => {
    const app = passwordApp()
    await post(app, new Jar(), "/api/auth/password/signup", { email: "ada@example.com", password: GOOD_PASSWORD })
    const claimant = await app.adapter.getUserByEmail("ada@example.com")
    const resolved = await resolveUser(await contextOf(app), app.adapter, githubSignIn("ada@example.com"))
    expect(resolved.isNewUser).toBe(true)
    expect(resolved.user.id).not.toBe(claimant?.id)
    expect(await app.adapter.getUser(claimant?.id ?? "")).toBeNull()
    expect(location(await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("keeps a confirmed password account: a provider's sign-in for its address is refused as before (rule R1)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    await expect(resolveUser(await contextOf(app), app.adapter, githubSignIn("ada@example.com"))).rejects.toMatchObject({ code: "OAuthAccountNotLinked" })
  })

  it("replaces an unconfirmed password account when its address's owner follows an email sign-in link", async () => {
    const outbox: SendVerificationRequestParams[] = []
    const email = emailProvider({ id: "email", name: "Email" }, { from: "no-reply@app.example", sendVerificationRequest: (params) => void outbox.push(params) })
    const base = passwordApp()
    const app = { ...base, providers: [...base.providers, email] }
    await post(app, new Jar(), "/api/auth/password/signup", { email: "ada@example.com", password: GOOD_PASSWORD })
    const claimant = await base.adapter.getUserByEmail("ada@example.com")
    const jar = new Jar()
    await post(app, jar, "/api/auth/signin/email", { email: "ada@example.com" })
    const [confirm] = parseForms(await (await call(app, jar, outbox[0]?.url ?? "")).text())
    const form: Record<string, string> = {}
    for (const control of confirm?.controls ?? []) if (control.type === "hidden") form[control.name] = control.values[0] ?? ""
    expect((await call(app, jar, confirm?.action ?? "", { form })).status).toBe(302)
    const session = (await (await call(app, jar, "/api/auth/session")).json()) as { user: { id: string } }
    expect(session.user.id).not.toBe(claimant?.id)
    expect(location(await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).searchParams.get("error")).toBe("CredentialsSignin")
  })
})
