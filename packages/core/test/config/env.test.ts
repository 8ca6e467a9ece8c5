/**
 * The one home of environment reading: core, the providers' helpers and the integrations
 * (Next.js with `process.env`, SvelteKit with `$env/dynamic/private`) read variables through it.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { envFlag, envName, envValue, readEnv } from "../../src/index.js"
import { emailApiOptions, tenantIssuer } from "../../src/providers/index.js"

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("environment reading", () => {
  it("reads process.env when no object is passed, at the time of the call", () => {
    vi.stubEnv("AUTH_ENV_TEST", "first")
    expect(readEnv().AUTH_ENV_TEST).toBe("first")
    expect(envValue("AUTH_ENV_TEST")).toBe("first")
    vi.stubEnv("AUTH_ENV_TEST", "second")
    expect(envValue("AUTH_ENV_TEST")).toBe("second")
  })

  it("reads the object an integration passes, and never process.env then", () => {
    vi.stubEnv("AUTH_SECRET", "from-process")
    expect(envValue("AUTH_SECRET", { AUTH_SECRET: "from-platform" })).toBe("from-platform")
    expect(envValue("AUTH_SECRET", {})).toBeUndefined()
  })

  it("answers an empty record where the runtime has no process", () => {
    vi.stubGlobal("process", undefined)
    try {
      expect(readEnv()).toEqual({})
      expect(envValue("AUTH_SECRET")).toBeUndefined()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("takes an empty value as unset", () => {
    expect(envValue("AUTH_URL", { AUTH_URL: "" })).toBeUndefined()
    expect(envFlag("AUTH_TRUST_HOST", { AUTH_TRUST_HOST: "" })).toBeUndefined()
  })

  it('reads a flag as true only for "true" and "1"', () => {
    expect(envFlag("AUTH_TRUST_HOST", { AUTH_TRUST_HOST: "true" })).toBe(true)
    expect(envFlag("AUTH_TRUST_HOST", { AUTH_TRUST_HOST: "1" })).toBe(true)
    for (const value of ["false", "0", "yes", "TRUE", " true"]) expect(envFlag("AUTH_TRUST_HOST", { AUTH_TRUST_HOST: value }), value).toBe(false)
    expect(envFlag("AUTH_TRUST_HOST", {})).toBeUndefined()
  })

  it("names a provider's variables AUTH_<ID>_<SUFFIX>, with - as _", () => {
    expect(envName("azure-ad-b2c", "SECRET")).toBe("AUTH_AZURE_AD_B2C_SECRET")
    expect(envName("github", "ID")).toBe("AUTH_GITHUB_ID")
  })

  it("is where the providers' helpers read their variables", () => {
    vi.stubEnv("AUTH_ACME_CLOUD_ISSUER", "https://sso.acme.example/realms/a")
    vi.stubEnv("AUTH_ACME_MAIL_KEY", "key-from-env")
    expect(tenantIssuer("acme-cloud", {}, "the realm URL")).toBe("https://sso.acme.example/realms/a")
    expect(emailApiOptions("acme-mail", "Acme Mail", {}, "https://api.acme.example").apiKey).toBe("key-from-env")
  })
})
