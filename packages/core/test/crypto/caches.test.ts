/**
 * Security: no cache grows with what requests choose. With `trustHost` and a wildcard
 * `allowedOrigins`, every admitted host gets its own session salt, hence its own derived keys;
 * every token that opens is remembered. Floods of distinct hosts and tokens through `Auth()`
 * must leave every cache within its bound, and the app's own sessions working.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { BoundedCache, cacheSizes } from "../../src/crypto/caches.js"
import { Auth } from "../../src/index.js"
import { encode } from "../../src/session/jwt.js"
import type { AuthConfig } from "../../src/types.js"
import { SECRET, passwordProvider } from "../helpers.js"

const CANONICAL = "http://app.example.com"
const COOKIE = "authjs.session-token"
/** More distinct hosts (and tokens) than any cache holds. */
const FLOOD = 2000

/** A token with an `A256GCM` header and no `kid`: opening it derives both legacy key sets for its salt. */
const GCM_TOKEN = `${Buffer.from('{"alg":"dir","enc":"A256GCM"}').toString("base64url")}..${"A".repeat(16)}.AAAA.${"A".repeat(22)}`

function previewApp(): AuthConfig {
  return {
    secret: SECRET,
    url: CANONICAL,
    trustHost: true,
    allowedOrigins: ["http://*.preview.example.com"],
    providers: [passwordProvider()],
    logger: { error: () => undefined, warn: () => undefined },
  }
}

/** `GET /session` as a proxy forwards it for `host`, with a session cookie. */
async function readSession(config: AuthConfig, host: string, token: string): Promise<unknown> {
  const headers = { "x-forwarded-host": host, cookie: `${COOKIE}=${token}` }
  const response = await Auth(new Request(`${CANONICAL}/api/auth/session`, { headers }), config)
  expect(response.status).toBe(200)
  return response.json()
}

function expectWithinBounds(): void {
  const sizes = cacheSizes()
  expect(Object.keys(sizes)).toEqual(expect.arrayContaining(["keys per secret", "keys per list", "opened tokens", "secret lists"]))
  for (const [name, { size, limit }] of Object.entries(sizes)) expect(size, name).toBeLessThanOrEqual(limit)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("caches keyed by what a request chooses", () => {
  it(`attack: ${FLOOD} preview hosts, each with a bad and a legacy-looking session cookie, leave every cache within its bound`, async () => {
    const config = previewApp()
    for (let i = 0; i < FLOOD; i++) {
      const host = `pr-${i}.preview.example.com`
      expect(await readSession(config, host, i % 2 === 0 ? "not-a-token" : GCM_TOKEN)).toBeNull()
    }
    expectWithinBounds()
  })

  it("attack: after a flood of hosts the first host's keys were dropped (derived again), the latest kept", async () => {
    const config = previewApp()
    for (let i = 0; i < FLOOD; i++) await readSession(config, `flood-${i}.preview.example.com`, "not-a-token")
    const deriveBits = vi.spyOn(crypto.subtle, "deriveBits")
    await readSession(config, `flood-${FLOOD - 1}.preview.example.com`, "not-a-token")
    expect(deriveBits).not.toHaveBeenCalled()
    await readSession(config, "flood-0.preview.example.com", "not-a-token")
    expect(deriveBits).toHaveBeenCalled()
  })

  it(`attack: ${FLOOD} distinct valid session tokens leave the remembered tokens within their bound, and sessions keep working`, async () => {
    const config = previewApp()
    const tokens: string[] = []
    for (let i = 0; i < FLOOD; i++) tokens.push(await encode({ token: { sub: `user-${i}`, name: `User ${i}` }, secret: SECRET, salt: COOKIE }))
    for (const [i, token] of tokens.entries()) expect(await readSession(config, "app.example.com", token)).toMatchObject({ user: { name: `User ${i}` } })
    expectWithinBounds()
    // The first tokens were forgotten, not refused: they open again by decryption.
    expect(await readSession(config, "app.example.com", tokens[0] ?? "")).toMatchObject({ user: { name: "User 0" } })
  })

  it("the app's own origin keeps its keys while preview hosts come and go", async () => {
    const config = previewApp()
    const token = await encode({ token: { sub: "ada", name: "Ada" }, secret: SECRET, salt: COOKIE })
    expect(await readSession(config, "app.example.com", token)).toMatchObject({ user: { name: "Ada" } })
    const deriveBits = vi.spyOn(crypto.subtle, "deriveBits")
    for (let i = 0; i < FLOOD; i++) {
      expect(await readSession(config, "app.example.com", token)).toMatchObject({ user: { name: "Ada" } })
      await readSession(config, `churn-${i}.preview.example.com`, "not-a-token")
    }
    // One derivation per preview host, none for the canonical origin read in between.
    expect(deriveBits).toHaveBeenCalledTimes(FLOOD)
  })
})

describe("BoundedCache", () => {
  it("drops the least recently used entry beyond its limit", () => {
    const cache = new BoundedCache<string, number>(2)
    cache.set("a", 1)
    cache.set("b", 2)
    expect(cache.get("a")).toBe(1)
    cache.set("c", 3)
    expect(cache.size).toBe(2)
    expect(cache.get("b")).toBeUndefined()
    cache.get("c")
    cache.get("a")
    cache.set("d", 4)
    expect([cache.get("c"), cache.get("a"), cache.get("d")]).toEqual([undefined, 1, 4])
  })

  it("forgets a deleted key, and a key set again is the newest", () => {
    const cache = new BoundedCache<string, number>(2)
    cache.set("a", 1)
    cache.set("b", 2)
    cache.delete("b")
    cache.set("c", 3)
    cache.get("a")
    cache.set("b", 2)
    expect([cache.get("c"), cache.get("a"), cache.get("b")]).toEqual([undefined, 1, 2])
  })
})
