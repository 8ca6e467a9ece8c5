import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters.js"
import { resolveConfig } from "../../src/config/config.js"
import { normaliseMfa } from "../../src/config/mfa.js"
import { Auth } from "../../src/index.js"
import type { AuthConfig, MfaOptions } from "../../src/types.js"
import { configError, ORIGIN, testConfig } from "../helpers.js"

const ADA: AdapterUser = { id: "u1", email: "ada@example.com", emailVerified: null }

/** The methods `mfa` needs beyond what Auth.js's adapters have. */
const FACTOR_METHODS = ["createAuthFactor", "listAuthFactors", "updateAuthFactor", "deleteAuthFactor", "useAuthFactorStep", "countAuthFactorFailure", "replaceAuthFactors"]
const RECORD_METHODS = ["createSessionRecord", "getSessionRecord", "listSessionRecords", "updateSessionRecord", "useOnce"]
/** What a pending sign-in's row needs: Auth.js's adapters have them (email links). */
const PENDING_METHODS = ["createVerificationToken", "useVerificationToken"]

/** A memory adapter without `methods`, as an Auth.js adapter lacks this project's additions. */
function adapterWithout(methods: readonly string[]): Adapter {
  const adapter: Record<string, unknown> = { ...MemoryAdapter() }
  for (const method of methods) Reflect.deleteProperty(adapter, method)
  return adapter
}

function mfaConfig(mfa: unknown, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ adapter: MemoryAdapter(), mfa: mfa as MfaOptions, ...overrides })
}

describe("the mfa option", () => {
  it("defaults to TOTP, required of nobody", async () => {
    const mfa = normaliseMfa({}, MemoryAdapter())
    expect(mfa.factors).toEqual(["totp"])
    expect(await mfa.required(ADA)).toBe(false)
  })

  it("is undefined when not set, so nothing of it is read", async () => {
    expect((await resolveConfig(testConfig({ adapter: MemoryAdapter() }))).mfa).toBeUndefined()
  })

  it("keeps the factors in the app's order, and required as given: true, or the app's function of the user", async () => {
    const every = normaliseMfa({ factors: ["passkey", "totp", "email"], required: true }, MemoryAdapter())
    expect(every.factors).toEqual(["passkey", "totp", "email"])
    expect(await every.required(ADA)).toBe(true)
    const seen: AdapterUser[] = []
    const admins = normaliseMfa(
      {
        required: (user: AdapterUser) => {
          seen.push(user)
          return Promise.resolve(user.email === "ada@example.com")
        },
      },
      MemoryAdapter(),
    )
    expect(await admins.required(ADA)).toBe(true)
    expect(await admins.required({ ...ADA, email: "bob@example.com" })).toBe(false)
    expect(seen.map((user) => user.email)).toEqual(["ada@example.com", "bob@example.com"])
  })

  it("fails a sign-in whose required function answers anything but a boolean, never reading it as no", async () => {
    for (const answer of [undefined, null, "false", 0, 1, {}]) {
      const mfa = normaliseMfa({ required: () => answer }, MemoryAdapter())
      await expect(mfa.required(ADA), `answer ${typeof answer}`).rejects.toMatchObject({ code: "Configuration", message: expect.stringMatching(/^`mfa.required` answered \w+, not true or false\.$/) as unknown })
    }
  })

  it("refuses hostile values with a Configuration error naming the option", async () => {
    const sparse: unknown[] = []
    sparse.length = 2 ** 31
    const refusals: [unknown, RegExp][] = [
      ["yes", /^Configuration: `mfa` must be an object/],
      [null, /^Configuration: `mfa` must be an object/],
      [true, /^Configuration: `mfa` must be an object/],
      [["totp"], /^Configuration: `mfa` must be an object/],
      [{ factors: "totp" }, /^Configuration: `mfa.factors` must be a non-empty array of "totp", "passkey", "email", each at most once\.$/],
      [{ factors: [] }, /^Configuration: `mfa.factors` must be a non-empty array/],
      [{ factors: sparse }, /^Configuration: `mfa.factors` must be a non-empty array/],
      [{ factors: ["totp", "sms"] }, /^Configuration: `mfa.factors\[1\]` must be one of "totp", "passkey", "email"\.$/],
      [{ factors: ["TOTP"] }, /^Configuration: `mfa.factors\[0\]` must be one of/],
      [{ factors: [undefined] }, /^Configuration: `mfa.factors\[0\]` must be one of/],
      [{ factors: ["totp", "totp"] }, /^Configuration: `mfa.factors` lists "totp" twice\.$/],
      [{ required: "true" }, /^Configuration: `mfa.required` must be a boolean or a function/],
      [{ required: 1 }, /^Configuration: `mfa.required` must be a boolean or a function/],
      [{ required: null }, /^Configuration: `mfa.required` must be a boolean or a function/],
      // A misspelt option would silently leave every user without a second factor.
      [{ require: true }, /^Configuration: `mfa` has no option `require`: its options are `factors` and `required`\.$/],
      [JSON.parse('{"__proto__": {"required": true}}'), /^Configuration: `mfa` has no option `__proto__`/],
    ]
    for (const [index, [mfa, message]] of refusals.entries()) expect(await configError(mfaConfig(mfa)), `refusal ${index}`).toMatch(message)
  })

  it("never changes the app's object", () => {
    const mfa = Object.freeze({ factors: Object.freeze(["totp", "passkey"]) as MfaOptions["factors"], required: false })
    expect(normaliseMfa(mfa, MemoryAdapter()).factors).toEqual(["totp", "passkey"])
  })
})

describe("Auth() with mfa", () => {
  /** Answers a request with `config` and returns the status and the errors it logged. */
  async function start(config: AuthConfig): Promise<{ status: number; errors: string }> {
    const errors: string[] = []
    const response = await Auth(new Request(`${ORIGIN}/api/auth/providers`), { ...config, logger: { error: (error) => errors.push(error.message), warn: () => undefined } })
    return { status: response.status, errors: errors.join("\n") }
  }

  it("refuses at start without an adapter, naming the methods it needs", async () => {
    const { status, errors } = await start(testConfig({ mfa: {} }))
    expect(status).toBe(503)
    expect(errors).toContain(`\`mfa\` needs an \`adapter\` that keeps second factors and session records (${[...FACTOR_METHODS, ...RECORD_METHODS, ...PENDING_METHODS].join(", ")})`)
  })

  it("refuses at start an adapter without the factor and session-record methods (an Auth.js adapter), naming the missing ones", async () => {
    const authJsLike = await start(mfaConfig({}, { adapter: adapterWithout([...FACTOR_METHODS, ...RECORD_METHODS]) }))
    expect(authJsLike.status).toBe(503)
    expect(authJsLike.errors).toContain(`\`mfa\` needs adapter methods the \`adapter\` is missing: ${[...FACTOR_METHODS, ...RECORD_METHODS].join(", ")}.`)
    for (const method of ["useAuthFactorStep", "replaceAuthFactors", "useOnce", "useVerificationToken"]) {
      const one = await start(mfaConfig({}, { adapter: adapterWithout([method]) }))
      expect(one.errors, method).toContain(`is missing: ${method}.`)
    }
  })

  it("starts once the option and the adapter are right: the gate enforces it (issue 37 stage 2)", async () => {
    const ready = await start(mfaConfig({ factors: ["totp"], required: true }))
    expect(ready.status).toBe(200)
    expect(ready.errors).toBe("")
  })

  it("refuses \"email\" among the factors at start when no mail can be sent: a user owing a code could never get one", async () => {
    expect(await configError(mfaConfig({ factors: ["totp", "email"] }))).toMatch(/^Configuration: `mfa.factors` lists "email", but no mail can be sent: set `mail.send`/)
    await expect(resolveConfig(mfaConfig({ factors: ["email"] }, { mail: { send: () => undefined } }))).resolves.toBeDefined()
    const transport = { id: "email", name: "Email", type: "email" as const, from: "no-reply@app.example", sendVerificationRequest: () => undefined, sendMail: () => undefined }
    await expect(resolveConfig(mfaConfig({ factors: ["email"] }, { providers: [transport] }))).resolves.toBeDefined()
  })

  it("starts with an adapter without the factor methods when mfa is not set", async () => {
    expect((await start(testConfig({ adapter: adapterWithout([...FACTOR_METHODS, ...RECORD_METHODS]) }))).status).toBe(200)
  })

  it("bounds every factor method by storeTimeout, as every other adapter call", async () => {
    const hanging = new Promise<never>(() => undefined)
    const adapter = { ...MemoryAdapter(), useAuthFactorStep: () => hanging, countAuthFactorFailure: () => hanging, replaceAuthFactors: () => hanging }
    // The factor methods go through the same bounded view of the adapter, mfa or not.
    const config = await resolveConfig(testConfig({ adapter, storeTimeout: 50 }))
    for (const call of [() => config.adapter?.useAuthFactorStep?.("f1", 1), () => config.adapter?.countAuthFactorFailure?.("f1"), () => config.adapter?.replaceAuthFactors?.("u1", "backup", [])]) {
      await expect(call()).rejects.toMatchObject({ code: "AdapterError", message: expect.stringMatching(/within 50 ms \(`storeTimeout`\)/) as unknown })
    }
  })
})
