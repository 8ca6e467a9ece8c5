/**
 * `breachedPasswords`: the k-anonymity range check against a stub of the Pwned Passwords range API
 * on 127.0.0.1. Only the first 5 hex characters of the SHA-1 leave the server; a hit refuses the
 * password; a miss, a padding line, a timeout, an error status and a garbage body accept it, the
 * last three with one warning that shows neither the password nor its hash.
 */
import { createHash } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import type { RequestContext } from "../../src/internal.js"
import { checkNewPassword, readPasswordRules, type PasswordRules } from "../../src/password/rules.js"
import { ORIGIN, testConfig } from "../helpers.js"

const PASSWORD = "tangerine umbrella galaxy"
const HASH = createHash("sha1").update(PASSWORD).digest("hex").toUpperCase()
const PREFIX = HASH.slice(0, 5)
const SUFFIX = HASH.slice(5)

/** Another suffix under the same prefix, as a real answer lists hundreds. */
const OTHER = "0".repeat(35)

let answer: (request: Request) => Response | Promise<Response>
const seen: Request[] = []
const warnings: string[] = []
let served: ServedHandler
let context: RequestContext
let rules: PasswordRules

beforeAll(async () => {
  served = await serveHandler((request) => {
    seen.push(request)
    return answer(request)
  })
  rules = readPasswordRules({ breachedPasswords: { url: served.origin } }, {})
  const config = testConfig({ logger: { error: () => undefined, warn: (code, message) => void warnings.push(`${code}: ${message ?? ""}`) } })
  const url = new URL(`${ORIGIN}/api/auth/password/signup`)
  context = createContext(await resolveConfig(config), new Request(url, { method: "POST" }), url)
})

afterAll(async () => {
  await served.close()
})

beforeEach(() => {
  seen.length = 0
  warnings.length = 0
})

function rangeAnswer(...lines: string[]): Response {
  return new Response(lines.join("\r\n"), { headers: { "content-type": "text/plain" } })
}

/** The warning holds none of the password, its hash or the prefix that was sent. */
function expectOneQuietWarning(reason: RegExp): void {
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toMatch(/^BreachedPasswordCheck: The breached-password check gave no verdict \(/)
  expect(warnings[0]).toMatch(reason)
  for (const secret of [PASSWORD, HASH, PREFIX, SUFFIX, HASH.toLowerCase()]) expect(warnings[0]).not.toContain(secret)
}

describe("breachedPasswords: the k-anonymity range check (ASVS 6.2.12, NIST SP 800-63B rev 4 §3.1.1.2)", () => {
  it("refuses a password the range answer lists, having sent only the 5-character prefix of its SHA-1 (ASVS 6.2.12)", async () => {
    answer = () => rangeAnswer(`${OTHER}:3`, `${SUFFIX}:2413`)
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: false, reason: "breached" })
    expect(seen).toHaveLength(1)
    const sent = seen[0] as Request
    expect(new URL(sent.url).pathname).toBe(`/range/${PREFIX}`)
    expect(sent.headers.get("add-padding")).toBe("true")
    expect(sent.url).not.toContain(SUFFIX)
    expect(warnings).toEqual([])
  })

  it("hashes the NFKC form: a full-width spelling of a breached password is breached too (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
    answer = () => rangeAnswer(`${SUFFIX}:7`)
    const fullWidth = PASSWORD.replace(/[a-z]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0))
    expect(await checkNewPassword(context, rules, fullWidth)).toEqual({ ok: false, reason: "breached" })
    expect(new URL((seen[0] as Request).url).pathname).toBe(`/range/${PREFIX}`)
  })

  it("accepts a password the answer does not list, and one found only on a padding line (count 0)", async () => {
    answer = () => rangeAnswer(`${OTHER}:3`)
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: true, password: PASSWORD })
    answer = () => rangeAnswer(`${OTHER}:3`, `${SUFFIX}:0`)
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: true, password: PASSWORD })
    expect(warnings).toEqual([])
  })

  it("fails open after its 2 s budget with one warning when the API does not answer", async () => {
    answer = () => new Promise<Response>(() => undefined)
    const started = Date.now()
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: true, password: PASSWORD })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900)
    expectOneQuietWarning(/no answer within 2000 ms/)
  })

  it("fails open with one warning when the API answers 500", async () => {
    answer = () => new Response("down", { status: 500 })
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: true, password: PASSWORD })
    expectOneQuietWarning(/HTTP 500/)
  })

  it("fails open with one warning on a body that is not a range list, even one holding the suffix", async () => {
    answer = () => new Response(`<html>${SUFFIX}:12</html>`)
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: true, password: PASSWORD })
    expectOneQuietWarning(/not a range list/)
    warnings.length = 0
    answer = () => new Response("")
    expect(await checkNewPassword(context, rules, PASSWORD)).toEqual({ ok: true, password: PASSWORD })
    expectOneQuietWarning(/empty/)
  })

  it("is not asked about a password the other rules refuse", async () => {
    answer = () => rangeAnswer(`${OTHER}:1`)
    expect(await checkNewPassword(context, rules, "short")).toEqual({ ok: false, reason: "tooShort" })
    expect(await checkNewPassword(context, rules, "passwordpassword")).toEqual({ ok: false, reason: "common" })
    expect(seen).toEqual([])
  })

  it("uses the app's `fetch` when given one", async () => {
    const asked: string[] = []
    const own = readPasswordRules(
      {
        breachedPasswords: {
          fetch: (input) => {
            asked.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
            return Promise.resolve(rangeAnswer(`${SUFFIX}:1`))
          },
        },
      },
      {},
    )
    expect(await checkNewPassword(context, own, PASSWORD)).toEqual({ ok: false, reason: "breached" })
    expect(asked).toEqual([`https://api.pwnedpasswords.com/range/${PREFIX}`])
  })
})
