import { beforeEach, describe, expect, it, vi } from "vitest"
import { HashingBusy, hashingConcurrency, hashingSlots } from "../../src/password/hashing-slots.js"

/** Every derivation the module under test asks for, with how many ran at once at its start. */
const derivations: { ln: number; r: number; p: number; keyLength: number; running: number }[] = []
let running = 0

// scrypt itself is replaced by a timed stand-in that counts how many derivations run at once:
// the cap and the cost of each path are what is under test here, not the key (hash.test.ts).
vi.mock("../../src/password/scrypt.js", async (original) => {
  const actual = await original<typeof import("../../src/password/scrypt.js")>()
  return {
    ...actual,
    scrypt: async (_password: Uint8Array, _salt: Uint8Array, input: { ln: number; r: number; p: number; keyLength: number }) => {
      running++
      derivations.push({ ...input, running })
      await new Promise((resolve) => setTimeout(resolve, 5))
      running--
      return new Uint8Array(input.keyLength)
    },
  }
})

const { hashing, SCRYPT_COST, spendVerifyCost, verifyPassword, hashPassword } = await import("../../src/password/hash.js")

beforeEach(() => {
  derivations.length = 0
})

describe("the per-instance hashing cap (issue 39 item 8: cost as a weapon)", () => {
  it("runs at most one hash per core: 50 concurrent verifications never run more than the cap at once, the rest wait in order", async () => {
    const { limit } = hashing.load()
    expect(limit).toBe(hashingConcurrency())
    const stored = await hashPassword("a password of some length")
    derivations.length = 0
    const verifications = Array.from({ length: 50 }, () => verifyPassword(stored, "a password of some length"))
    expect(hashing.load()).toMatchObject({ running: limit, queued: 50 - limit })
    await Promise.all(verifications)
    expect(derivations).toHaveLength(50)
    expect(Math.max(...derivations.map((derivation) => derivation.running))).toBe(limit)
    expect(hashing.load()).toMatchObject({ running: 0, queued: 0 })
  })

  it("refuses a call at once when the queue is full, as the server's own failure (503), and serves the queue in arrival order", async () => {
    const slots = hashingSlots(1, 2)
    const order: number[] = []
    let open = (): void => undefined
    const gate = new Promise<void>((resolve) => (open = resolve))
    const first = slots.run(async () => {
      await gate
      order.push(1)
    })
    const second = slots.run(() => {
      order.push(2)
      return Promise.resolve()
    })
    const third = slots.run(() => {
      order.push(3)
      return Promise.resolve()
    })
    const refused = slots.run(() => {
      order.push(4)
      return Promise.resolve()
    })
    await expect(refused).rejects.toBeInstanceOf(HashingBusy)
    await expect(refused).rejects.toMatchObject({ code: "AdapterError" })
    open()
    await Promise.all([first, second, third])
    expect(order).toEqual([1, 2, 3])
    expect(slots.load()).toMatchObject({ running: 0, queued: 0 })
  })

  it("frees the slot when the work fails", async () => {
    const slots = hashingSlots(1, 1)
    await expect(slots.run(() => Promise.reject(new Error("scrypt failed")))).rejects.toThrow("scrypt failed")
    await expect(slots.run(() => Promise.resolve("next"))).resolves.toBe("next")
  })
})

describe("a verification costs the same whatever is stored (ASVS 6.3.8: no enumeration by timing)", () => {
  it.each([
    ["an empty string", ""],
    ["garbage", "not a hash at all"],
    ["a malformed PHC string", "$scrypt$ln=14,r=8,p=5$!!$!!"],
    ["an unknown algorithm", "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$aGFzaA"],
    ["a cost that would hold the instance", "$scrypt$ln=30,r=8,p=5$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["a short salt", "$scrypt$ln=14,r=8,p=5$MDEy$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["padded base64", "$scrypt$ln=14,r=8,p=5$MDEyMzQ1Njc4OWFiY2RlZg==$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["a bcrypt hash without `legacyHashes`", "$2b$10$abcdefghijklmnopqrstuu5Oa1pYJ9eR0uE6bK4v2hKqS7k3jzS2W"],
  ])("%s stored runs one full derivation at today's cost before answering no match, never a throw", async (_name, stored) => {
    expect(await verifyPassword(stored, "any password")).toEqual({ ok: false, rehash: false })
    expect(derivations).toEqual([{ ...SCRYPT_COST, keyLength: 32, running: 1 }])
  })

  it("the unknown-user path (spendVerifyCost) runs the same derivation as a real verification", async () => {
    await spendVerifyCost("any password")
    const spent = derivations.splice(0)
    await verifyPassword(await hashPassword("any password"), "any password")
    expect(derivations.at(-1)).toEqual(spent[0])
  })
})
