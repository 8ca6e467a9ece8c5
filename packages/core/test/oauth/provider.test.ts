/**
 * An OAuth provider's options as Auth.js 0.41.3 takes them: what they mean here, and the refusal
 * (naming the option) where we stay stricter.
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import { customFetch } from "../../src/index.js"
import { customFetch as kitCustomFetch, mergeProviderConfig, type OAuth2Config } from "../../src/providers/index.js"
import type { InternalOAuthProvider } from "../../src/oauth/provider.js"
import { acmeProvider, call, csrfToken, Jar, location, testConfig } from "../helpers.js"

/** The provider as the routes use it, or the configuration error it raises. */
async function configured(provider: Record<string, unknown>): Promise<InternalOAuthProvider> {
  const config = await resolveConfig(testConfig({ providers: [provider as never] }))
  return config.providers[0]?.options as InternalOAuthProvider
}

async function refusal(provider: Record<string, unknown>): Promise<string> {
  return configured(provider).then(
    () => "accepted",
    (error: unknown) => (error as Error).message,
  )
}

async function signInUrl(provider: Record<string, unknown>): Promise<URL> {
  const config = testConfig({ providers: [provider as never] })
  const jar = new Jar()
  const response = await call(config, jar, `/api/auth/signin/${String(provider.id)}`, { form: { csrfToken: await csrfToken(config, jar) } })
  return location(response)
}

const privateKey = async (): Promise<CryptoKey> =>
  ((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]))).privateKey

describe("endpoint params that are not strings", () => {
  it("sends numbers and booleans as their text and `claims` as JSON in the authorization URL (OIDC Core §5.5)", async () => {
    const claims = { id_token: { email: { essential: true } } }
    const url = await signInUrl(acmeProvider({ authorization: { url: "https://acme.example/authorize", params: { max_age: 0, include_granted_scopes: true, claims, skipped: undefined } } }))
    expect(url.searchParams.get("max_age")).toBe("0")
    expect(url.searchParams.get("include_granted_scopes")).toBe("true")
    expect(JSON.parse(url.searchParams.get("claims") ?? "")).toEqual(claims)
    expect(url.searchParams.has("skipped")).toBe(false)
  })

  it("sends the token and userinfo params as text too", async () => {
    const provider = await configured(acmeProvider({ token: { url: "https://acme.example/token", params: { v: 2 } }, userinfo: { url: "https://acme.example/me", params: { fields: "id", pretty: false } } }))
    expect(provider.token.params).toEqual({ v: "2" })
    expect(provider.userinfo.params).toEqual({ fields: "id", pretty: "false" })
  })

  it.each([
    ["authorization", { nested: { a: 1 } }, "nested"],
    ["authorization", { scope: ["openid", "email"] }, "scope"],
    ["token", { n: Number.NaN }, "n"],
    ["userinfo", { empty: null }, "empty"],
  ])("refuses a %s param Auth.js would send as `[object Object]` or `null`, naming it", async (endpoint, params, key) => {
    expect(await refusal(acmeProvider({ [endpoint]: { url: `https://acme.example/${endpoint}`, params } }))).toContain(`\`providers["acme"].${endpoint}.params.${key}\` must be a string, a finite number or a boolean`)
  })
})

describe("client authentication (OIDC Core §9)", () => {
  it("takes client_secret_jwt with the client secret", async () => {
    const provider = await configured(acmeProvider({ client: { token_endpoint_auth_method: "client_secret_jwt" } }))
    expect(provider.authMethod).toBe("client_secret_jwt")
    expect(await refusal(acmeProvider({ clientSecret: undefined, client: { token_endpoint_auth_method: "client_secret_jwt" } }))).toContain("acme: set `clientSecret`")
  })

  it("takes private_key_jwt with `token.clientPrivateKey`, and no client secret", async () => {
    const key = await privateKey()
    const provider = await configured(acmeProvider({ clientSecret: undefined, client: { token_endpoint_auth_method: "private_key_jwt" }, token: { url: "https://acme.example/token", clientPrivateKey: { key, kid: "k1" } } }))
    expect(provider.authMethod).toBe("private_key_jwt")
    expect(provider.clientPrivateKey).toEqual({ key, kid: "k1" })
  })

  it("refuses private_key_jwt without a private key, naming `token.clientPrivateKey`", async () => {
    const publicKey = ((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]))).publicKey
    for (const clientPrivateKey of [undefined, publicKey, "-----BEGIN PRIVATE KEY-----"]) {
      expect(await refusal(acmeProvider({ client: { token_endpoint_auth_method: "private_key_jwt" }, token: { url: "https://acme.example/token", clientPrivateKey } }))).toContain(
        '`providers["acme"].token.clientPrivateKey` must be a private CryptoKey',
      )
    }
  })

  it("refuses a method it does not know, naming the option", async () => {
    expect(await refusal(acmeProvider({ client: { token_endpoint_auth_method: "tls_client_auth" } }))).toContain('`providers["acme"].client.token_endpoint_auth_method` must be')
  })
})

describe("`reauth`", () => {
  it("refuses a value other than false or \"prompt\", naming the option", async () => {
    expect(await refusal(acmeProvider({ reauth: true }))).toContain('`providers["acme"].reauth` must be `false` or "prompt"')
  })
})

describe('"nonce" in an OAuth 2.0 provider\'s checks', () => {
  it("sends a nonce, sealed in its cookie, when the provider's keys are known (OIDC Core §3.1.2.1)", async () => {
    const url = await signInUrl(acmeProvider({ checks: ["pkce", "nonce"], jwks_endpoint: "https://acme.example/jwks" }))
    expect(url.searchParams.get("nonce")).toMatch(/^[\w-]{20,}$/)
  })

  it("is refused at start without keys to verify the ID token with, naming `checks` and `jwks_endpoint`", async () => {
    expect(await refusal(acmeProvider({ checks: ["nonce"] }))).toMatch(/`providers\["acme"\]\.checks` has "nonce".*`jwks_endpoint`/)
  })

  it("refuses a `jwks_endpoint` that is not https", async () => {
    expect(await refusal(acmeProvider({ jwks_endpoint: "http://acme.example/jwks" }))).toContain('`providers["acme"].jwks_endpoint` must use https')
  })
})

describe("[customFetch]", () => {
  it("is the same symbol from @portcullis/core and @portcullis/core/providers, and across copies of core", () => {
    expect(kitCustomFetch).toBe(customFetch)
    expect(Symbol.for("@portcullis/core/custom-fetch")).toBe(customFetch)
  })

  it("is kept as the provider's fetch, and refused when it is not a function", async () => {
    const fetcher: typeof fetch = (input, init) => fetch(input, init)
    expect((await configured(acmeProvider({ [customFetch]: fetcher }))).customFetch).toBe(fetcher)
    expect(await refusal(acmeProvider({ [customFetch]: "https://proxy.example" }))).toContain('`providers["acme"].[customFetch]` must be a fetch function')
  })

  it("passed to a factory replaces the provider's own (mergeProviderConfig)", () => {
    const own: typeof fetch = (input, init) => fetch(input, init)
    const users: typeof fetch = (input, init) => fetch(input, init)
    const defaults: OAuth2Config = { ...(acmeProvider() as OAuth2Config), [customFetch]: own }
    expect(mergeProviderConfig(defaults, {})[customFetch]).toBe(own)
    expect(mergeProviderConfig(defaults, { [customFetch]: users })[customFetch]).toBe(users)
  })
})

describe("a provider written in Auth.js's style, with `options`", () => {
  it("lays the options its factory was given over what it returns, id included", async () => {
    const fetcher: typeof fetch = (input, init) => fetch(input, init)
    const written = {
      // The client id only among the options, as an Auth.js factory's caller passes it.
      ...acmeProvider({ clientId: undefined, authorization: { url: "https://acme.example/authorize", params: { scope: "read" } } }),
      options: { id: "acme-eu", clientId: "eu-client", authorization: { params: { prompt: "login" } }, [customFetch]: fetcher },
    }
    const config = await resolveConfig(testConfig({ providers: [written] }))
    const provider = config.providers[0]?.options as InternalOAuthProvider
    expect(config.providers[0]?.id).toBe("acme-eu")
    expect(provider).toMatchObject({ id: "acme-eu", clientId: "eu-client", authorization: { params: { scope: "read", prompt: "login" } }, customFetch: fetcher })
  })

  it("refuses `options` that are not an object", async () => {
    expect(await refusal({ ...acmeProvider(), options: "eu" })).toContain('`providers["acme"].options` must be an object')
  })
})

describe("trustProviderMfa and acrValues", () => {
  const oidc = (overrides: Record<string, unknown>) => acmeProvider({ type: "oidc", issuer: "https://acme.example", ...overrides })

  it("OIDC Core §3.1.2.1: sends acrValues as acr_values, space-separated in order, and keeps the trust", async () => {
    const provider = await configured(oidc({ trustProviderMfa: true, acrValues: ["urn:example:loa:mfa", "phr"] }))
    expect(provider).toMatchObject({ trustProviderMfa: true, acrValues: ["urn:example:loa:mfa", "phr"], authorization: { params: { acr_values: "urn:example:loa:mfa phr" } } })
    expect((await configured(oidc({ trustProviderMfa: false }))).trustProviderMfa).toBeUndefined()
  })

  it("refuses acrValues that are not strings without spaces, naming the option", async () => {
    for (const acrValues of [[], ["two words"], [""], [7], "urn:example:loa:mfa"]) {
      expect(await refusal(oidc({ acrValues }))).toContain('`providers["acme"].acrValues` must be a non-empty array of strings without spaces')
    }
    expect(await refusal(oidc({ trustProviderMfa: "yes" }))).toContain('`providers["acme"].trustProviderMfa` must be a boolean')
  })

  it("refuses them on a plain OAuth 2.0 provider, and acrValues beside authorization.params.acr_values", async () => {
    expect(await refusal(acmeProvider({ trustProviderMfa: true }))).toContain('`providers["acme"].trustProviderMfa` is for OpenID Connect providers')
    expect(await refusal(oidc({ acrValues: ["a"], authorization: { url: "https://acme.example/authorize", params: { acr_values: "b" } } }))).toContain("are both set")
  })
})
