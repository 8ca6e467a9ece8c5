import { afterEach, describe, expect, it, vi } from "vitest"
import { incompleteProblem, incompleteProvider, mergeEmailConfig, mergeProviderConfig, tenantIssuer, userFromClaims, type OAuth2Config, type OIDCConfig } from "../src/providers/index.js"

describe("mergeProviderConfig", () => {
  const defaults: OAuth2Config = {
    id: "acme",
    name: "Acme",
    type: "oauth",
    authorization: { url: "https://acme.example/authorize", params: { scope: "read", prompt: "consent" } },
    token: "https://acme.example/token",
    style: { brandColor: "#000000" },
    client: { token_endpoint_auth_method: "client_secret_post" },
  }

  it("replaces top-level fields and merges the known nested objects one level deep", () => {
    const merged = mergeProviderConfig(defaults, {
      name: "Acme EU",
      authorization: { params: { scope: "read write" } },
      token: "https://eu.acme.example/token",
      style: { logo: "https://acme.example/logo.svg" },
    })
    expect(merged.name).toBe("Acme EU")
    expect(merged.authorization).toEqual({ url: "https://acme.example/authorize", params: { scope: "read write", prompt: "consent" } })
    expect(merged.token).toBe("https://eu.acme.example/token")
    expect(merged.style).toEqual({ brandColor: "#000000", logo: "https://acme.example/logo.svg" })
    expect(merged.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })

  it("keeps default params when a string replaces an endpoint's URL", () => {
    expect(mergeProviderConfig(defaults, { authorization: "https://other.example/a" }).authorization).toEqual({
      url: "https://other.example/a",
      params: { scope: "read", prompt: "consent" },
    })
  })

  it("never lets undefined erase a default, never changes its type, and mutates nothing", () => {
    const user = Object.freeze({ token: undefined, type: "oidc" as never, clientId: "id" })
    const frozen = Object.freeze({ ...defaults })
    const merged = mergeProviderConfig(frozen, user)
    expect(merged.token).toBe("https://acme.example/token")
    expect(merged.type).toBe("oauth")
    expect(merged).not.toBe(frozen)
  })
})

describe("userFromClaims", () => {
  it("maps standard claims, falling back from name to given and family name to username", () => {
    expect(userFromClaims({ sub: "1", name: "Ada Lovelace", email: "ada@example.com", picture: "https://i.example/a" })).toEqual({
      id: "1",
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://i.example/a",
    })
    expect(userFromClaims({ sub: "2", given_name: "Ada", family_name: "Lovelace" }).name).toBe("Ada Lovelace")
    expect(userFromClaims({ sub: "3", preferred_username: "ada" }).name).toBe("ada")
  })

  it("leaves a missing or non-string subject out instead of inventing one", () => {
    expect(userFromClaims({ name: "x" })).not.toHaveProperty("id")
    expect(userFromClaims({ sub: 42, email: 7 })).toEqual({ name: null, email: null, image: null })
  })
})

describe("tenantIssuer", () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it("takes the option, else AUTH_<ID>_ISSUER, else answers a placeholder on a domain that never resolves (RFC 6761 §6.4) instead of throwing", () => {
    expect(tenantIssuer("azure-ad", { issuer: "https://a.example" }, "x")).toBe("https://a.example")
    vi.stubEnv("AUTH_AZURE_AD_ISSUER", "https://env.example")
    expect(tenantIssuer("azure-ad", {}, "x")).toBe("https://env.example")
    vi.stubEnv("AUTH_AZURE_AD_ISSUER", "")
    expect(new URL(tenantIssuer("azure-ad", {}, "your tenant's URL")).hostname).toMatch(/\.invalid$/)
  })

  it("a configuration built on the placeholder says what to set, whichever endpoint the factory built on it", () => {
    const issuer = tenantIssuer("acme-tenant", {}, "your tenant's URL, e.g. https://acme.example")
    const oidc = mergeProviderConfig<OIDCConfig>({ id: "acme-tenant", name: "Acme", type: "oidc", issuer }, { clientId: "id" })
    expect(incompleteProblem(oidc)).toBe("set `issuer` or AUTH_ACME_TENANT_ISSUER (your tenant's URL, e.g. https://acme.example)")
    const base = issuer.replace(/\/+$/, "")
    const oauth2 = mergeProviderConfig({ id: "acme-tenant", name: "Acme", type: "oauth", authorization: `${base}/oauth/authorize`, token: { url: `${base}/oauth/token` } }, {})
    expect(incompleteProblem(oauth2)).toMatch(/^set `issuer` or AUTH_ACME_TENANT_ISSUER/)
    // The marker travels with copies, as the flow does, and never with a configuration that has its issuer.
    expect(incompleteProblem({ ...oidc, name: "Work" })).toBe(incompleteProblem(oidc))
    expect(incompleteProblem(mergeProviderConfig({ id: "acme-tenant", name: "Acme", type: "oidc", issuer: tenantIssuer("acme-tenant", { issuer: "https://t.example" }, "x") }, {}))).toBeUndefined()
  })
})

describe("incompleteProvider", () => {
  it("marks a copy, never the caller's object, and adds to what an earlier mark said", () => {
    const config = Object.freeze({ id: "acme", name: "Acme", type: "oauth" as const })
    const once = incompleteProvider(config, "set `apiKey`")
    expect(incompleteProblem(config)).toBeUndefined()
    expect(incompleteProblem(once)).toBe("set `apiKey`")
    expect(incompleteProblem(incompleteProvider(once, "set `domain`"))).toBe("set `apiKey`; set `domain`")
    expect(Object.keys(once)).toEqual(["id", "name", "type"])
  })
})

describe("mergeEmailConfig", () => {
  const sendVerificationRequest = () => undefined

  it("fills the id, name, type and a 24-hour link lifetime, and lets the user's options win", () => {
    expect(mergeEmailConfig({ id: "email", name: "Email" }, { sendVerificationRequest })).toMatchObject({ id: "email", name: "Email", type: "email", maxAge: 86_400 })
    expect(mergeEmailConfig({ id: "email", name: "Email" }, { sendVerificationRequest, id: "magic", maxAge: 600, type: "oauth" } as never)).toMatchObject({
      id: "magic",
      type: "email",
      maxAge: 600,
    })
  })
})
