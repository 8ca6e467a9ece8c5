import { describe, expect, it } from "vitest"
import { isDate, type Adapter, type StrictAdapter } from "../src/adapters.js"
import { resolveConfig } from "../src/config/config.js"
import { callAdapter } from "../src/outbound/store.js"
import type { AuthConfig } from "../src/types.js"

const SECRET = "p2X0FMaDmh_AI5gaku6ac4EB7zfYQ7TqQhuIWoElIHs"

describe("isDate", () => {
  it("accepts the ISO date-times Dates become in JSON, with or without milliseconds and with an offset", () => {
    for (const value of [
      new Date(0).toJSON(),
      "2024-02-29T12:34:56Z",
      "2024-02-29T12:34Z",
      "2024-02-29T12:34:56.789+02:00",
      (JSON.parse(JSON.stringify({ at: new Date() })) as { at: string }).at,
    ]) {
      expect(isDate(value), value).toBe(true)
    }
  })

  it("refuses what is not a date-time string", () => {
    for (const value of [null, undefined, 0, Date.now(), new Date(), "", "2024-02-29", "yesterday", "2024-13-45T99:99:99Z", "x2024-02-29T12:34:56Z"]) {
      expect(isDate(value), String(value)).toBe(false)
    }
  })
})

// Checked by `tsc` (the package's typecheck): a `@ts-expect-error` that no longer errors fails it.
describe("Adapter and StrictAdapter", () => {
  it("lets the config take deletes and links that answer nothing, as Auth.js's adapters' do, and StrictAdapter refuse them", () => {
    const answersNothing = {
      async deleteUser(_userId: string): Promise<void> {},
      async linkAccount(_account: { userId: string; provider: string; providerAccountId: string; type: "oidc" }): Promise<void> {},
      async deleteSession(_sessionToken: string): Promise<void> {},
    }
    const accepted: Adapter = answersNothing
    // @ts-expect-error StrictAdapter's deletes and links answer the record (or null / undefined), never a bare Promise<void>.
    const refused: StrictAdapter = answersNothing
    expect(refused).toBe(accepted)
  })

  it("keeps every StrictAdapter an Adapter", () => {
    const strict: StrictAdapter = { deleteSession: () => null, getUser: () => ({ id: "u1", email: null, emailVerified: null, plan: "pro" }) }
    const accepted: Adapter = strict
    expect(accepted).toBe(strict)
  })
})

describe("storeTimeout", () => {
  const never = (): Promise<never> => new Promise(() => undefined)

  it("fails an adapter call or a rateLimit.store call still pending after `storeTimeout` with an AdapterError", async () => {
    const config = await resolveConfig({ secret: SECRET, providers: [], session: { strategy: "jwt" }, adapter: { getUser: never }, storeTimeout: 50, rateLimit: { store: { hit: never, peek: never, reset: () => Promise.reject(new Error("down")) } } })
    await expect(callAdapter(config.adapter ?? {}, "getUser", "u1")).rejects.toMatchObject({ code: "AdapterError", cause: { message: /`getUser` did not answer within 50 ms \(`storeTimeout`\)/ } })
    const store = config.rateLimit?.store
    await expect(store?.hit("k", 60)).rejects.toMatchObject({ code: "AdapterError", message: /`hit` did not answer within 50 ms/ })
    await expect(store?.reset("k")).rejects.toMatchObject({ code: "AdapterError", cause: { message: "down" } })
  })

  it("bounds `withAccountLock` until the lock is granted, never its critical section, and runs nothing under a lock granted late", async () => {
    let grant: (() => void) | undefined
    const adapter: Adapter = {
      withAccountLock: async (_key, critical) => {
        await new Promise<void>((resolve) => {
          grant = resolve
        })
        return critical()
      },
    }
    const config = await resolveConfig({ secret: SECRET, providers: [], session: { strategy: "jwt" }, adapter, storeTimeout: 50 })
    const lock = config.adapter?.withAccountLock?.bind(config.adapter)
    const key = { provider: "p", providerAccountId: "a" }
    let ran = false
    await expect(lock?.(key, () => Promise.resolve((ran = true)))).rejects.toMatchObject({ code: "AdapterError", message: /did not grant the lock within 50 ms/ })
    grant?.()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(ran).toBe(false)
    const slow = lock?.(key, () => new Promise((resolve) => setTimeout(resolve, 120, "done")))
    grant?.()
    await expect(slow).resolves.toBe("done")
  })

  it("gives two configs sharing one adapter the same bounded adapter, so caches keyed by the adapter (revocation checks) are shared", async () => {
    const adapter: Adapter = { getUser: () => null }
    const first = await resolveConfig({ secret: SECRET, providers: [], session: { strategy: "jwt" }, adapter })
    const second = await resolveConfig({ secret: SECRET, providers: [], session: { strategy: "jwt" }, adapter })
    const slower = await resolveConfig({ secret: SECRET, providers: [], session: { strategy: "jwt" }, adapter, storeTimeout: 50 })
    expect(second.adapter).toBe(first.adapter)
    expect(slower.adapter).not.toBe(first.adapter)
    expect(first.adapter).not.toBe(adapter)
  })

  it("refuses a `storeTimeout` that is not 1 to 120000 ms", async () => {
    for (const storeTimeout of [0, -1, 120_001, Number.NaN, "5000"]) {
      await expect(resolveConfig({ secret: SECRET, providers: [], storeTimeout } as unknown as AuthConfig)).rejects.toMatchObject({ code: "Configuration", message: /`storeTimeout`/ })
    }
  })
})
