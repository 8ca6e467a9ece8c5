/**
 * The account-linking rules under faults: two first sign-ins of one account racing (a double
 * click, two tabs) end on one user, whichever request loses; a user a dead process left without
 * its account is finished by its owner's next sign-in, and nothing else is.
 */
import { MemoryAdapter, type MemoryAdapterState } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import { resolveUser } from "../../src/sign-in/accounts.js"
import type { Adapter, AdapterUser } from "../../src/adapters.js"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { ORIGIN, acmeProvider, passwordProvider, testConfig } from "../helpers.js"

const winner: AdapterUser = { id: "u-first", email: "ada@example.com", emailVerified: null, name: "Ada" }
const account = { provider: "acme", type: "oauth" as const, providerAccountId: "ada-at-acme" }
const profileUser = { id: "ada-at-acme", email: "ada@example.com", name: "Ada" }

/** A store as the losing request finds it: the winner has created its user and, by the time the loser looks again, linked the account. */
function racedStore(calls: string[]): Adapter {
  return {
    getUserByEmail: () => winner,
    getUserByAccount: () => {
      calls.push("getUserByAccount")
      return winner
    },
    createUser: () => {
      throw new Error("duplicate key value violates unique constraint")
    },
  }
}

async function resolve(adapter: Adapter, emailVerified: boolean, config: AuthConfig = testConfig()) {
  const url = new URL(`${ORIGIN}/api/auth/callback/acme`)
  return resolveUser(createContext(await resolveConfig(config), new Request(url), url), adapter, {
    accountUser: null,
    profileUser,
    account,
    profile: {},
    emailVerified,
    allowEmailLinking: false,
    signedInUserId: undefined,
  })
}

describe("concurrent first sign-ins", () => {
  it("the loser that finds the winner's user by email signs in as it once the account is linked, instead of OAuthAccountNotLinked", async () => {
    const calls: string[] = []
    expect(await resolve(racedStore(calls), false)).toEqual({ user: winner, isNewUser: false })
    expect(calls).toEqual(["getUserByAccount"])
  })

  it("the loser whose createUser hits the store's unique key signs in as the winner", async () => {
    const calls: string[] = []
    const adapter = { ...racedStore(calls), getUserByEmail: () => null }
    expect(await resolve(adapter, true)).toEqual({ user: winner, isNewUser: false })
  })

  it("still refuses rule R1 when no sign-in of this account is under way", async () => {
    const adapter: Adapter = { getUserByEmail: () => winner, getUserByAccount: () => null }
    await expect(resolve(adapter, false)).rejects.toMatchObject({ code: "OAuthAccountNotLinked" })
  })
})

describe("a store whose email index lags behind", () => {
  it("does not treat a user whose stored email is another address as the owner of the looked-up one", async () => {
    const { findUserByEmail } = await import("../../src/sign-in/accounts.js")
    const moved: AdapterUser = { id: "u1", email: "new@example.com", emailVerified: new Date(), name: "Ada" }
    const adapter: Adapter = { getUserByEmail: (email) => (email === "old@example.com" || email === "new@example.com" ? moved : null) }
    expect(await findUserByEmail(adapter, "old@example.com")).toBeNull()
    expect(await findUserByEmail(adapter, "new@example.com")).toEqual(moved)
    const mixedCase: Adapter = { getUserByEmail: () => ({ ...moved, email: "New@Example.com" }) }
    expect(await findUserByEmail(mixedCase, "new@example.com")).toMatchObject({ id: "u1" })
  })
})

describe("a user its first sign-in left without an account (the process died between createUser and linkAccount)", () => {
  const verifiedAt = new Date("2026-01-01T00:00:00Z")
  const orphan: AdapterUser = { id: "orphan", email: "ada@example.com", emailVerified: verifiedAt, name: "Ada" }
  const otherAccount = { userId: "orphan", type: "oauth" as const, provider: "gone", providerAccountId: "ada-at-gone" }
  const passkey = { credentialID: "cred-1", userId: "orphan", providerAccountId: "cred-1", credentialPublicKey: "key", counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true }
  const emailProvider = { id: "email", name: "Email", type: "email" as const, sendVerificationRequest: () => undefined }

  it("is finished by the next sign-in of a provider that verified that same address: the account is linked to it, as a new user", async () => {
    const adapter = MemoryAdapter({ users: [orphan] })
    expect(await resolve(adapter, true)).toMatchObject({ user: { id: "orphan" }, isNewUser: true })
    expect(await adapter.getUserByAccount(account)).toMatchObject({ id: "orphan" })
  })

  const refused: [string, { state?: MemoryAdapterState; emailVerified?: boolean; config?: (adapter: Adapter) => AuthConfig; hide?: keyof Adapter }][] = [
    ["when the provider did not verify the address", { emailVerified: false }],
    ["when the user's own address was never verified", { state: { users: [{ ...orphan, emailVerified: null }] } }],
    ["when the user has an account at another provider, even one the app no longer configures", { state: { users: [orphan], accounts: [otherAccount] } }],
    ["when the user has a passkey", { state: { users: [orphan], authenticators: [passkey] } }],
    ["when an email provider signs the user in by its verified address", { config: (adapter) => testConfig({ adapter, providers: [acmeProvider(), emailProvider] }) }],
    ["when a credentials provider may hold a password for the user", { config: (adapter) => testConfig({ adapter, providers: [acmeProvider(), passwordProvider()] }) }],
    ["when the adapter cannot list the user's accounts", { hide: "listAccountsByUserId" }],
  ]
  for (const [when, setup] of refused) {
    it(`still refuses with OAuthAccountNotLinked ${when}`, async () => {
      const store = MemoryAdapter(setup.state ?? { users: [orphan] })
      const adapter: Adapter = setup.hide === undefined ? store : { ...store, [setup.hide]: undefined }
      await expect(resolve(adapter, setup.emailVerified ?? true, setup.config?.(adapter))).rejects.toMatchObject({ code: "OAuthAccountNotLinked" })
      expect(await store.getUserByAccount(account)).toBeNull()
    })
  }
})

describe("the owner's notice of a linked account (OWASP ASVS v5 6.3.7)", () => {
  const owner: AdapterUser = { id: "owner", email: "ada@example.com", emailVerified: new Date("2026-01-01T00:00:00Z"), name: "Ada" }

  async function linkByEmail(state: MemoryAdapterState): Promise<{ mails: MailMessage[]; isNewUser: boolean }> {
    const mails: MailMessage[] = []
    const adapter = MemoryAdapter(state)
    const config = testConfig({ adapter, providers: [acmeProvider()], mail: { send: (message) => void mails.push(message) } })
    const url = new URL(`${ORIGIN}/api/auth/callback/acme`)
    const context = createContext(await resolveConfig(config), new Request(url), url)
    const { isNewUser } = await resolveUser(context, adapter, { accountUser: null, profileUser, account, profile: {}, emailVerified: true, allowEmailLinking: true, signedInUserId: undefined })
    return { mails, isNewUser }
  }

  it("mails the existing user whose verified address allowDangerousEmailAccountLinking linked a new account to, naming the provider", async () => {
    const { mails, isNewUser } = await linkByEmail({ users: [owner], accounts: [{ userId: "owner", type: "oauth", provider: "other", providerAccountId: "ada-elsewhere" }] })
    expect(isNewUser).toBe(false)
    expect(mails.map(({ to, kind, subject }) => [to, kind, subject])).toEqual([["ada@example.com", "notice", "Your Acme account was linked"]])
  })

  it("sends none for the first account of a user its own sign-in creates", async () => {
    const { mails, isNewUser } = await linkByEmail({})
    expect(isNewUser).toBe(true)
    expect(mails).toEqual([])
  })
})
