import { readdirSync, readFileSync } from "node:fs"
import type { AdapterSession, AdapterUser } from "@portcullis/core/adapters"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter, type MemoryAdapterState } from "../src/index.js"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

function seed(): Required<MemoryAdapterState> {
  const expires = new Date(Date.now() + DAY)
  return {
    users: [
      {
        id: "u1",
        email: "ada@example.com",
        emailVerified: new Date("2024-01-02T03:04:05Z"),
        name: "Ada",
        roles: ["admin"],
      },
    ],
    accounts: [{ userId: "u1", type: "oauth", provider: "github", providerAccountId: "42", access_token: "at" }],
    sessions: [{ sessionToken: "s1", userId: "u1", expires }],
    verificationTokens: [{ identifier: "ada@example.com", token: "t1", expires }],
    authenticators: [
      {
        credentialID: "c1",
        userId: "u1",
        providerAccountId: "c1",
        credentialPublicKey: "pQECAyYgASFYIA",
        counter: 3,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      },
    ],
    sessionRecords: [{ id: "r1", userId: "u1", createdAt: new Date(), lastSeenAt: new Date(), expires, sessionToken: "s1" }],
    authFactors: [{ id: "f1", userId: "u1", type: "totp", secret: "sealed", createdAt: new Date(), lastUsedStep: 7 }],
    passwordHashes: [{ userId: "u1", hash: "$scrypt$ln=14,r=8,p=5$c2FsdA$aGFzaA" }],
  }
}

afterEach(() => {
  vi.useRealTimers()
})

describe("MemoryAdapter initial state", () => {
  it("starts with the records it is given", async () => {
    const adapter = MemoryAdapter(seed())
    expect(await adapter.getUser("u1")).toMatchObject({ email: "ada@example.com", roles: ["admin"] })
    expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: "u1" })
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "42" })).toMatchObject({ id: "u1" })
    expect(await adapter.getSessionAndUser("s1")).toMatchObject({ session: { userId: "u1" }, user: { id: "u1" } })
    expect(await adapter.useVerificationToken({ identifier: "ada@example.com", token: "t1" })).toMatchObject({ token: "t1" })
    expect(await adapter.listAuthenticatorsByUserId("u1")).toEqual([expect.objectContaining({ credentialID: "c1", counter: 3, transports: null })])
    expect(await adapter.getSessionRecord("r1")).toMatchObject({ userId: "u1", sessionToken: "s1", revokedAt: null })
    expect(await adapter.listAuthFactors("u1")).toEqual([expect.objectContaining({ id: "f1", lastUsedStep: 7, failures: 0, confirmedAt: null })])
    expect(await adapter.getPasswordHash("u1")).toBe("$scrypt$ln=14,r=8,p=5$c2FsdA$aGFzaA")
  })

  it("copies the records in: changing the caller's objects later changes nothing", async () => {
    const state = seed()
    const adapter = MemoryAdapter(state)
    const [user] = state.users
    const [session] = state.sessions
    if (!user?.emailVerified || !session) throw new Error("seed() changed")
    user.email = "mallory@example.com"
    user.emailVerified.setTime(0)
    ;(user.roles as string[]).push("root")
    session.expires.setTime(0)

    expect(await adapter.getUserByEmail("mallory@example.com")).toBeNull()
    expect(await adapter.getUser("u1")).toMatchObject({
      email: "ada@example.com",
      emailVerified: new Date("2024-01-02T03:04:05Z"),
      roles: ["admin"],
    })
    expect(await adapter.getSessionAndUser("s1")).not.toBeNull()
  })

  it("never changes the caller's arrays or records", async () => {
    const state = seed()
    const snapshot = structuredClone(state)
    const adapter = MemoryAdapter(state)
    await adapter.updateUser({ id: "u1", email: "grace@example.com" })
    await adapter.useVerificationToken({ identifier: "ada@example.com", token: "t1" })
    await adapter.deleteUser("u1")
    expect(state).toEqual(snapshot)
  })

  it("is checked like new records: unique keys, existing users, Dates", () => {
    const { users, accounts, sessions, sessionRecords, authFactors, passwordHashes } = seed()
    const [user] = users
    expect(() => MemoryAdapter({ users: [...users, { ...user, id: "u2" } as AdapterUser] })).toThrow(
      /initial\.users\[1\]: another user has this email/,
    )
    expect(() => MemoryAdapter({ users: [...users, { ...user, email: "b@example.com" } as AdapterUser] })).toThrow(
      /initial\.users\[1\]: a user with this id exists/,
    )
    expect(() => MemoryAdapter({ accounts })).toThrow(/initial\.accounts\[0\]: no user has the id/)
    expect(() => MemoryAdapter({ users, sessions: [...sessions, ...sessions] })).toThrow(/initial\.sessions\[1\]: a session with this token exists/)
    expect(() => MemoryAdapter({ sessionRecords: [...sessionRecords, ...sessionRecords] })).toThrow(/initial\.sessionRecords\[1\]: a session record with this id exists/)
    expect(() => MemoryAdapter({ authFactors: [...authFactors, ...authFactors] })).toThrow(/initial\.authFactors\[1\]: a factor with this id exists/)
    expect(() => MemoryAdapter({ authFactors: [{ ...authFactors[0], id: "f2", lastUsedStep: -1 } as never] })).toThrow(/initial\.authFactors\[0\]: step must be a non-negative integer/)
    expect(() => MemoryAdapter({ passwordHashes })).toThrow(/initial\.passwordHashes\[0\]: no user has the id/)
    expect(() => MemoryAdapter({ users, passwordHashes: [{ userId: "u1", hash: "" }] })).toThrow(/initial\.passwordHashes\[0\]: `hash` must be a non-empty string/)
    const jsonSession = JSON.parse(JSON.stringify(sessions[0])) as AdapterSession
    expect(() => MemoryAdapter({ users, sessions: [jsonSession] })).toThrow(
      new TypeError("MemoryAdapter: initial.sessions[0]: expires must be a valid Date"),
    )
  })
})

describe("MemoryAdapter copies", () => {
  it("returns a new deep copy on every read, nested fields included", async () => {
    const adapter = MemoryAdapter(seed())
    const first = await adapter.getUser("u1")
    const second = await adapter.getUser("u1")
    expect(first).not.toBe(second)
    expect(first?.roles).not.toBe(second?.roles)
    expect(first?.emailVerified).not.toBe(second?.emailVerified)
    ;(first?.roles as string[]).push("root")
    expect((await adapter.getUser("u1"))?.roles).toEqual(["admin"])
  })

  it("keeps a __proto__ field as data, never as the record's prototype", async () => {
    const adapter = MemoryAdapter()
    const input = JSON.parse('{"email":"eve@example.com","emailVerified":null,"__proto__":{"isAdmin":true}}') as AdapterUser
    const user = await adapter.createUser(input)
    for (const read of [user, await adapter.getUser(user.id)]) {
      expect(Object.getPrototypeOf(read)).toBe(Object.prototype)
      expect(read?.isAdmin).toBeUndefined()
      expect(Object.keys(read ?? {})).toContain("__proto__")
    }
  })
})

describe("MemoryAdapter indexes", () => {
  it("follow updateUser to a new email: the old one is free, the new one taken", async () => {
    const adapter = MemoryAdapter()
    const ada = await adapter.createUser({ email: "ada@example.com", emailVerified: null })
    await adapter.updateUser({ id: ada.id, email: "countess@example.com" })
    expect(await adapter.getUserByEmail("ada@example.com")).toBeNull()
    expect(await adapter.getUserByEmail("countess@example.com")).toMatchObject({ id: ada.id })

    const newcomer = await adapter.createUser({ email: "ada@example.com", emailVerified: null })
    expect(newcomer.id).not.toBe(ada.id)
    expect(() => adapter.createUser({ email: "countess@example.com", emailVerified: null })).toThrow(/another user has this email/)
  })

  it("stay as they were after a refused update", async () => {
    const adapter = MemoryAdapter()
    const ada = await adapter.createUser({ email: "ada@example.com", emailVerified: null, name: "Ada" })
    const grace = await adapter.createUser({ email: "grace@example.com", emailVerified: null })
    expect(() => adapter.updateUser({ id: grace.id, email: "ada@example.com", name: "Grace" })).toThrow(/another user has this email/)
    expect(() => adapter.updateUser({ id: ada.id, emailVerified: "yesterday" as unknown as Date })).toThrow(TypeError)
    expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: ada.id, emailVerified: null })
    expect(await adapter.getUserByEmail("grace@example.com")).toMatchObject({ id: grace.id })
    expect((await adapter.getUser(grace.id))?.name).toBeUndefined()
  })

  it("keep a user's own email through an update that repeats it", async () => {
    const adapter = MemoryAdapter()
    const ada = await adapter.createUser({ email: "ada@example.com", emailVerified: null })
    await adapter.updateUser({ id: ada.id, email: "ada@example.com", name: "Ada" })
    expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: ada.id, name: "Ada" })
  })

  it("tell accounts apart when provider and id could run together", async () => {
    const adapter = MemoryAdapter(seed())
    await adapter.linkAccount({ userId: "u1", type: "oauth", provider: "a:b", providerAccountId: "c" })
    expect(await adapter.getUserByAccount({ provider: "a", providerAccountId: "b:c" })).toBeNull()
    expect(await adapter.getUserByAccount({ provider: "a:b", providerAccountId: "c" })).toMatchObject({ id: "u1" })
  })
})

describe("MemoryAdapter rules", () => {
  it("gives each user a UUID, whatever id the input carries", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: "chosen", email: "ada@example.com", emailVerified: null })
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(await adapter.getUser("chosen")).toBeNull()
  })

  it("treats undefined in an update as unchanged and null as cleared", async () => {
    const adapter = MemoryAdapter(seed())
    const updated = await adapter.updateUser({ id: "u1", name: undefined, image: null })
    expect(updated).toMatchObject({ name: "Ada", image: null })
    expect(await adapter.getUser("u1")).toMatchObject({ name: "Ada", image: null })
  })

  it("stores a missing emailVerified as null", async () => {
    const adapter = MemoryAdapter()
    // An adapter must cope with callers that omit fields the types require.
    const user = await adapter.createUser({ email: "ada@example.com" } as never)
    expect(user.emailVerified).toBeNull()
  })

  it("does not extend an expired session", async () => {
    const adapter = MemoryAdapter(seed())
    await adapter.createSession({ sessionToken: "old", userId: "u1", expires: new Date(Date.now() - MINUTE) })
    expect(await adapter.updateSession({ sessionToken: "old", expires: new Date(Date.now() + DAY) })).toBeNull()
    expect(await adapter.getSessionAndUser("old")).toBeNull()
  })

  it("keeps users whose provider shared no email, without indexing them", async () => {
    const adapter = MemoryAdapter()
    const first = await adapter.createUser({ email: null, emailVerified: null, name: "Anon" })
    const second = await adapter.createUser({ emailVerified: null } as never)
    expect(first).toMatchObject({ email: null, name: "Anon" })
    expect(second).toMatchObject({ email: null })
    expect(await adapter.getUserByEmail("")).toBeNull()

    await adapter.updateUser({ id: first.id, email: "anon@example.com" })
    expect(await adapter.getUserByEmail("anon@example.com")).toMatchObject({ id: first.id })
    expect(() => adapter.updateUser({ id: second.id, email: "anon@example.com" })).toThrow(/another user has this email/)
    // Typed out by the contract, but an untyped caller can clear the email.
    await adapter.updateUser({ id: first.id, email: null })
    expect(await adapter.getUserByEmail("anon@example.com")).toBeNull()
  })

  it("throws from updateUser for an unknown id", () => {
    expect(() => MemoryAdapter().updateUser({ id: "nobody", name: "x" })).toThrow(/updateUser\(\): no user has this id/)
  })

  it("links accounts and creates sessions for existing users only", async () => {
    const adapter = MemoryAdapter()
    expect(() => adapter.linkAccount({ userId: "ghost", type: "oauth", provider: "github", providerAccountId: "1" })).toThrow(
      /linkAccount\(\): no user has the id/,
    )
    expect(() => adapter.createSession({ sessionToken: "s", userId: "ghost", expires: new Date(Date.now() + DAY) })).toThrow(
      /createSession\(\): no user has the id/,
    )
    expect(await adapter.getAccount("1", "github")).toBeNull()
    expect(await adapter.getSessionAndUser("s")).toBeNull()
  })

  it("refuses an authenticator with a counter that is not a non-negative integer, or without its flags", async () => {
    const state = seed()
    const adapter = MemoryAdapter(state)
    const [authenticator] = state.authenticators
    if (!authenticator) throw new Error("seed() changed")
    expect(() => adapter.updateAuthenticatorCounter("c1", -1)).toThrow(/counter must be a non-negative integer/)
    expect(() => adapter.updateAuthenticatorCounter("c1", 1.5)).toThrow(/counter must be a non-negative integer/)
    expect(() => adapter.createAuthenticator({ ...authenticator, credentialID: "c2", credentialBackedUp: "yes" as never })).toThrow(
      /credentialBackedUp must be a boolean/,
    )
    expect(() => adapter.createAuthenticator({ ...authenticator, credentialID: "c3", userId: "ghost" })).toThrow(
      /createAuthenticator\(\): no user has the id/,
    )
    expect((await adapter.getAuthenticator("c1"))?.counter).toBe(3)
    expect(await adapter.getAuthenticator("c2")).toBeNull()
  })

  it("refuses a verification token that exists", async () => {
    const state = seed()
    const adapter = MemoryAdapter(state)
    const [token] = state.verificationTokens
    if (!token) throw new Error("seed() changed")
    expect(() => adapter.createVerificationToken({ ...token, expires: new Date(Date.now() + 2 * DAY) })).toThrow(
      /createVerificationToken\(\): this verification token exists/,
    )
    expect((await adapter.useVerificationToken(token))?.expires).toEqual(token.expires)
  })

  it("refuses records without what it indexes and checks", () => {
    const adapter = MemoryAdapter(seed())
    expect(() => adapter.createUser({ email: 42, emailVerified: null } as never)).toThrow(
      new TypeError("MemoryAdapter: createUser(): email must be a string"),
    )
    expect(() => adapter.createSession({ sessionToken: "s", userId: "u1", expires: new Date("soon") })).toThrow(
      /expires must be a valid Date/,
    )
    expect(() => adapter.updateSession({ sessionToken: "s1", userId: "ghost" })).toThrow(/updateSession\(\): no user has the id/)
  })

  it("keeps each MemoryAdapter's store to itself", async () => {
    const first = MemoryAdapter()
    const second = MemoryAdapter()
    const user = await first.createUser({ email: "ada@example.com", emailVerified: null })
    expect(await second.getUser(user.id)).toBeNull()
    await second.createUser({ email: "ada@example.com", emailVerified: null })
  })
})

describe("MemoryAdapter expiry sweep", () => {
  /**
   * Leaves a session and a token that expire in a minute, moves the clock two minutes on,
   * optionally creates enough records to trigger a sweep, then moves the clock back: what
   * survived is readable again, what was swept is gone.
   */
  async function survivesTimeTravel(fillUp: boolean): Promise<{ session: boolean; token: boolean }> {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Date.now()
    const adapter = MemoryAdapter(seed())
    const soon = new Date(start + MINUTE)
    await adapter.createSession({ sessionToken: "short", userId: "u1", expires: soon })
    await adapter.createVerificationToken({ identifier: "ada@example.com", token: "short", expires: soon })
    vi.setSystemTime(start + 2 * MINUTE)
    const later = new Date(start + DAY)
    for (let i = 0; fillUp && i < 1100; i++) {
      await adapter.createSession({ sessionToken: `bulk-${i}`, userId: "u1", expires: later })
      await adapter.createVerificationToken({ identifier: "ada@example.com", token: `bulk-${i}`, expires: later })
    }
    vi.setSystemTime(start)
    return {
      session: (await adapter.getSessionAndUser("short")) !== null,
      token: (await adapter.useVerificationToken({ identifier: "ada@example.com", token: "short" })) !== null,
    }
  }

  it("leaves a small store alone", async () => {
    expect(await survivesTimeTravel(false)).toEqual({ session: true, token: true })
  })

  it("drops expired sessions and tokens once the store has grown", async () => {
    expect(await survivesTimeTravel(true)).toEqual({ session: false, token: false })
  })
})

describe("the package source", () => {
  it("imports nothing from node: it runs on any runtime", () => {
    const dir = new URL("../src/", import.meta.url)
    for (const file of readdirSync(dir)) {
      expect(readFileSync(new URL(file, dir), "utf8"), file).not.toMatch(/from\s+["']node:|require\(/)
    }
  })
})
