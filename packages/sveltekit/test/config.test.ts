/**
 * The configuration SvelteKit apps get: what @auth/sveltekit reads from `$env/dynamic/private`
 * reaches core even where `process.env` does not hold it (Cloudflare, Deno), and the user's
 * settings always win.
 */
import { Auth } from "@portcullis/core"
import { describe, expect, it } from "vitest"
import { basePathOf, withEnvDefaults, type SvelteKitAuthConfig } from "../src/config.js"

const variables = {
  AUTH_SECRET: "mGXcjjumwzL3FE0rlJvWynreWymVhB5dsflkaTIfSj0",
  AUTH_URL: "https://app.example",
  AUTH_ACME_ID: "acme-id-from-env",
  AUTH_ACME_SECRET: "acme-secret-from-env",
}

const acme = () => ({
  id: "acme",
  name: "Acme",
  type: "oauth" as const,
  authorization: "https://acme.example/authorize",
  token: "https://acme.example/token",
  userinfo: "https://acme.example/userinfo",
})

describe("withEnvDefaults", () => {
  it("serves the routes under /auth, as @auth/sveltekit does", () => {
    expect(basePathOf(withEnvDefaults({ providers: [] }, {}))).toBe("/auth")
    expect(basePathOf(withEnvDefaults({ providers: [], basePath: "/api/auth/" }, {}))).toBe("/api/auth")
  })

  it("hands core the secret, URL and a provider's client from SvelteKit's env when process.env has none", async () => {
    expect(process.env.AUTH_SECRET).toBeUndefined()
    expect(process.env.AUTH_ACME_ID).toBeUndefined()
    const config = withEnvDefaults({ providers: [acme] }, variables)
    const signIn = await Auth(new Request("https://app.example/auth/signin/acme", { method: "GET" }), config)
    // Core's GET /signin/:id for a configured provider renders (or redirects), it does not fail on a missing secret or client id.
    expect(signIn.status).toBeLessThan(500)
    const csrf = await Auth(new Request("https://app.example/auth/csrf"), config)
    expect(csrf.status).toBe(200)
    const providers = config.providers.map((entry) => (typeof entry === "function" ? entry() : entry)) as { clientId?: string; clientSecret?: string }[]
    expect(providers[0]).toMatchObject({ clientId: "acme-id-from-env", clientSecret: "acme-secret-from-env" })
  })

  it("keeps what the config sets over the environment", () => {
    const config = withEnvDefaults({ providers: [{ ...acme(), clientId: "own-id" }], secret: "own-secret-of-at-least-32-characters", trustHost: false }, variables)
    expect(config.secret).toBe("own-secret-of-at-least-32-characters")
    expect(config.trustHost).toBe(false)
    expect(config.url).toBe("https://app.example")
    expect(config.providers[0]).toMatchObject({ clientId: "own-id", clientSecret: "acme-secret-from-env" })
  })

  it("reads AUTH_TRUST_HOST as core does", () => {
    expect(withEnvDefaults({ providers: [] }, { AUTH_TRUST_HOST: "true" }).trustHost).toBe(true)
    expect(withEnvDefaults({ providers: [] }, { AUTH_TRUST_HOST: "0" }).trustHost).toBe(false)
    expect(withEnvDefaults({ providers: [] }, {}).trustHost).toBeUndefined()
  })

  it("returns one object per config, so core's cache of the validated config is hit", () => {
    const config: SvelteKitAuthConfig = { providers: [] }
    expect(withEnvDefaults(config, variables)).toBe(withEnvDefaults(config, variables))
  })
})
