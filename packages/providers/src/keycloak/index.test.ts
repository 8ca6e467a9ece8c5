import { incompleteProblem } from "@portcullis/core/providers"
import { afterEach, describe, expect, it, vi } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Keycloak from "./index.js"

testProvider(Keycloak, {
  config: { issuer: "https://sso.example.com/realms/acme" },
  fixture,
  user: {
    id: "f2c4a0de-91b3-4c55-8f0e-3a7d2b6c9e10",
    name: "Jamie Rivera",
    email: "jamie.rivera@example.com",
    image: null,
  },
})

describe("keycloak without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Keycloak({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Keycloak())).toMatch(/^set `issuer` or AUTH_KEYCLOAK_ISSUER \(/)
  })
})

describe("keycloak issuer from the environment", () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it("takes AUTH_KEYCLOAK_ISSUER when `issuer` is not set", () => {
    vi.stubEnv("AUTH_KEYCLOAK_ISSUER", "https://sso.example.com/realms/from-env")
    expect(Keycloak({ clientId: "id", clientSecret: "secret" }).issuer).toBe("https://sso.example.com/realms/from-env")
  })

  it("prefers the `issuer` option to AUTH_KEYCLOAK_ISSUER", () => {
    vi.stubEnv("AUTH_KEYCLOAK_ISSUER", "https://sso.example.com/realms/from-env")
    expect(Keycloak({ issuer: "https://sso.example.com/realms/acme" }).issuer).toBe("https://sso.example.com/realms/acme")
  })
})
