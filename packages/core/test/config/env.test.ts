/**
 * The one home of environment reading: core, the providers' helpers and the integrations
 * (Next.js with `process.env`, SvelteKit with `$env/dynamic/private`) read variables through it.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth, envFlag, envName, envValue, readEnv } from "../../src/index.js"
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

  it("lists process.env's variables as process.env does", () => {
    vi.stubEnv("AUTH_ENV_TEST", "listed")
    expect(Object.keys(readEnv())).toContain("AUTH_ENV_TEST")
    expect("AUTH_ENV_TEST" in readEnv()).toBe(true)
    expect({ ...readEnv() }.AUTH_ENV_TEST).toBe("listed")
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

  it("takes a variable the runtime refuses to show as unset (Deno with --allow-env=<names> throws NotCapable for any other)", async () => {
    class NotCapable extends Error {}
    // Strong, or core warns WeakSecret into the test's output.
    const allowed: Record<string, string> = { AUTH_SECRET: "L+FcjAqjGy9ve6e8JxjL9e6To79pleAL5b9nUvmQhE4=" }
    const refuse = (name: string | symbol): void => {
      if (typeof name === "string" && !Object.hasOwn(allowed, name)) throw new NotCapable(`Requires env access to "${name}", run again with the --allow-env flag`)
    }
    // As Deno's process.env: every way of asking for another variable throws, listing them too.
    const scoped = new Proxy(allowed, {
      get: (target, name): unknown => (refuse(name), Reflect.get(target, name)),
      has: (target, name) => (refuse(name), Reflect.has(target, name)),
      getOwnPropertyDescriptor: (target, name) => (refuse(name), Reflect.getOwnPropertyDescriptor(target, name)),
      ownKeys: () => {
        throw new NotCapable("Requires env access to all, run again with the --allow-env flag")
      },
    })
    vi.stubGlobal("process", { env: scoped })
    try {
      expect(readEnv().AUTH_SECRET).toBe(allowed.AUTH_SECRET)
      expect(readEnv().AUTH_URL).toBeUndefined()
      expect(envValue("AUTH_URL")).toBeUndefined()
      expect(envFlag("AUTH_TRUST_HOST")).toBeUndefined()
      expect("AUTH_URL" in readEnv()).toBe(false)
      expect(Object.keys(readEnv())).toEqual([])
      const response = await Auth(new Request("http://localhost:3000/api/auth/csrf"), { url: "http://localhost:3000", providers: [] })
      expect(response.status).toBe(200)
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
