import { describe, expect, it } from "vitest"

import { isProduction, readPort, readSessionStrategy, resolveDemoPassword, resolveSecret, SettingsError } from "../src/settings.js"

describe("resolveSecret", () => {
  it("uses AUTH_SECRET when it is set, without a warning", () => {
    expect(resolveSecret({ AUTH_SECRET: "a-configured-secret-of-32-characters!" })).toEqual({
      secret: "a-configured-secret-of-32-characters!",
      warning: undefined,
    })
  })

  it("generates a random secret in development and warns to set one", () => {
    const first = resolveSecret({})
    const second = resolveSecret({ NODE_ENV: "development" })
    expect(first.secret).toMatch(/^[\w-]{43}$/)
    expect(second.secret).not.toBe(first.secret)
    expect(first.warning).toMatch(/AUTH_SECRET is not set/)
    expect(first.warning).toMatch(/openssl rand -base64 32/)
  })

  it("treats an empty AUTH_SECRET (a copied .env.example line) as unset", () => {
    expect(resolveSecret({ AUTH_SECRET: "  " }).warning).toBeDefined()
  })

  it("refuses to start in production without AUTH_SECRET, naming the variable", () => {
    const attempt = () => resolveSecret({ NODE_ENV: "production", AUTH_SECRET: "" })
    expect(attempt).toThrow(SettingsError)
    expect(attempt).toThrow(/^AUTH_SECRET is not set\. With NODE_ENV=production/)
  })

  it("accepts AUTH_SECRET in production", () => {
    expect(resolveSecret({ NODE_ENV: "production", AUTH_SECRET: "s".repeat(32) }).secret).toBe("s".repeat(32))
  })
})

describe("isProduction", () => {
  it("is true only for NODE_ENV=production", () => {
    expect(isProduction({ NODE_ENV: "production" })).toBe(true)
    expect(isProduction({ NODE_ENV: "development" })).toBe(false)
    expect(isProduction({})).toBe(false)
  })
})

describe("readSessionStrategy", () => {
  it("defaults to database sessions", () => {
    expect(readSessionStrategy({})).toBe("database")
    expect(readSessionStrategy({ AUTH_SESSION_STRATEGY: "" })).toBe("database")
  })

  it("switches to JWT sessions with AUTH_SESSION_STRATEGY=jwt", () => {
    expect(readSessionStrategy({ AUTH_SESSION_STRATEGY: "jwt" })).toBe("jwt")
  })

  it("rejects anything else, naming the variable and the choices", () => {
    expect(() => readSessionStrategy({ AUTH_SESSION_STRATEGY: "cookie" })).toThrow(
      'AUTH_SESSION_STRATEGY must be "database" or "jwt", got "cookie".',
    )
  })
})

describe("readPort", () => {
  it("reads a port, or the fallback when unset", () => {
    expect(readPort({ PORT: "3001" }, "PORT", 3000)).toBe(3001)
    expect(readPort({ PORT: "0" }, "PORT", 3000)).toBe(0)
    expect(readPort({}, "PORT", 3000)).toBe(3000)
  })

  it.each(["abc", "70000", "-1", "30.5"])("rejects %s, naming the variable", (value) => {
    expect(() => readPort({ DEV_IDP_PORT: value }, "DEV_IDP_PORT", 4400)).toThrow(/^DEV_IDP_PORT must be a port number/)
  })
})

describe("resolveDemoPassword", () => {
  it("makes up a new random password at each start when DEMO_USER_PASSWORD is unset", () => {
    const first = resolveDemoPassword({})
    const second = resolveDemoPassword({ DEMO_USER_PASSWORD: "" })
    expect(first.generated).toBe(true)
    expect(first.password).toMatch(/^[0-9a-f]{24}$/)
    expect(second.password).not.toBe(first.password)
  })

  it("uses DEMO_USER_PASSWORD when it is set", () => {
    expect(resolveDemoPassword({ DEMO_USER_PASSWORD: "correct horse battery" })).toEqual({ password: "correct horse battery", generated: false })
  })

  it.each([["short", 5], ["long", 129]])("rejects a %s password, naming the variable and not the value", (_kind, length) => {
    const attempt = () => resolveDemoPassword({ DEMO_USER_PASSWORD: "p".repeat(length) })
    expect(attempt).toThrow(SettingsError)
    expect(attempt).toThrow(`DEMO_USER_PASSWORD must be 8 to 128 characters long, got ${length}.`)
  })
})
