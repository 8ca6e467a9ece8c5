import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import type { AuthConfig } from "../../src/index.js"
import type { RequestContext } from "../../src/internal.js"
import { passwordStore, type PasswordStore } from "../../src/password/store.js"
import { testConfig } from "../helpers.js"

const HASH = "$scrypt$ln=14,r=8,p=5$c29tZSBzYWx0IGJ5dGVz$c29tZSBoYXNoIGJ5dGVzIG9mIDMyIGxlbmd0aCEhISE"

async function contextFor(config: AuthConfig): Promise<RequestContext> {
  const url = new URL("http://localhost:3000/api/auth/callback/password")
  return createContext(await resolveConfig(config), new Request(url, { method: "POST" }), url)
}

/** An app's own store on a Map, counting its calls. */
function appStore(): PasswordStore & { hashes: Map<string, string> } {
  const hashes = new Map<string, string>()
  return {
    hashes,
    get: (userId) => Promise.resolve(hashes.get(userId) ?? null),
    set: (userId, hash) => {
      hashes.set(userId, hash)
      return Promise.resolve()
    },
  }
}

describe("where password hashes are kept", () => {
  it("in the adapter's getPasswordHash / setPasswordHash when the app gives no store", async () => {
    const adapter = MemoryAdapter({ users: [{ id: "u1", email: "ada@example.com", emailVerified: null }] })
    const store = passwordStore(await contextFor(testConfig({ adapter })), undefined)
    expect(await store.get("u1")).toBeNull()
    await store.set("u1", HASH)
    expect(await store.get("u1")).toBe(HASH)
    expect(await adapter.getPasswordHash("u1")).toBe(HASH)
  })

  it("in the app's `store` before the adapter's, for an app on an Auth.js adapter", async () => {
    const adapter = MemoryAdapter({ users: [{ id: "u1", email: "ada@example.com", emailVerified: null }] })
    const own = appStore()
    const store = passwordStore(await contextFor(testConfig({ adapter })), own)
    await store.set("u1", HASH)
    expect(own.hashes.get("u1")).toBe(HASH)
    expect(await adapter.getPasswordHash("u1")).toBeNull()
    expect(await store.get("u1")).toBe(HASH)
  })

  it("answers an app store that hangs as a failed store (AdapterError) within `storeTimeout`", async () => {
    const hanging: PasswordStore = { get: () => new Promise(() => undefined), set: () => new Promise(() => undefined) }
    const store = passwordStore(await contextFor(testConfig({ storeTimeout: 50 })), hanging)
    await expect(store.get("u1")).rejects.toMatchObject({ code: "AdapterError", message: expect.stringContaining("50 ms") as unknown })
    await expect(store.set("u1", HASH)).rejects.toMatchObject({ code: "AdapterError" })
  })

  it("answers an app store that throws, or answers what is not a hash, as a failed store", async () => {
    const throwing: PasswordStore = { get: () => Promise.reject(new Error("connection lost")), set: () => Promise.reject(new Error("connection lost")) }
    const odd = { get: () => Promise.resolve(42), set: () => Promise.resolve() } as unknown as PasswordStore
    const context = await contextFor(testConfig())
    await expect(passwordStore(context, throwing).get("u1")).rejects.toMatchObject({ code: "AdapterError" })
    await expect(passwordStore(context, throwing).set("u1", HASH)).rejects.toMatchObject({ code: "AdapterError" })
    await expect(passwordStore(context, odd).get("u1")).rejects.toMatchObject({ code: "AdapterError" })
  })

  it("refuses, naming the methods, when there is neither a store nor an adapter with them", () => {
    expect(() => passwordStore({ config: { adapter: undefined, storeTimeout: 1000 } } as RequestContext, undefined)).toThrow(/getPasswordHash/)
  })
})
