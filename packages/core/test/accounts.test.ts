/**
 * The account-linking rules under concurrency: two first sign-ins of one account racing (a
 * double click, two tabs) end on one user, whichever request loses.
 */
import { describe, expect, it } from "vitest"
import { resolveUser } from "../src/accounts.js"
import type { Adapter, AdapterUser } from "../src/adapters.js"
import { resolveConfig } from "../src/config.js"
import { testConfig } from "./helpers.js"

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

async function resolve(adapter: Adapter, emailVerified: boolean) {
  return resolveUser(await resolveConfig(testConfig()), adapter, {
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
    const { findUserByEmail } = await import("../src/accounts.js")
    const moved: AdapterUser = { id: "u1", email: "new@example.com", emailVerified: new Date(), name: "Ada" }
    const adapter: Adapter = { getUserByEmail: (email) => (email === "old@example.com" || email === "new@example.com" ? moved : null) }
    expect(await findUserByEmail(adapter, "old@example.com")).toBeNull()
    expect(await findUserByEmail(adapter, "new@example.com")).toEqual(moved)
    const mixedCase: Adapter = { getUserByEmail: () => ({ ...moved, email: "New@Example.com" }) }
    expect(await findUserByEmail(mixedCase, "new@example.com")).toMatchObject({ id: "u1" })
  })
})
