/**
 * The provider author's test kit: checks a provider factory against its fixture, then runs its
 * whole sign-in through `Auth()` against a simulated identity provider on 127.0.0.1 that
 * answers the provider's real endpoint URLs (redirected to loopback) with the fixture.
 *
 * @example
 * ```ts
 * import { testProvider } from "../testing.js"
 * import fixture from "./fixture.json" with { type: "json" }
 * import Acme from "./index.js"
 *
 * testProvider(Acme, { fixture, user: { id: "42", name: "Ada", email: "ada@example.com", image: null } })
 * ```
 *
 * @module testing
 */
import { Auth, type AuthConfig } from "@portcullis/core"
import type { OAuthConfig, TokenSet, User } from "@portcullis/core/providers"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { simulateProvider, type SimulatedProvider } from "./testing-idp.js"
import { simulateOAuth1Provider, type OAuth1Endpoints, type SimulatedOAuth1Provider } from "./testing-oauth1.js"

/** What a provider test declares. */
export interface ProviderTestCase<P> {
  /** Options passed to the factory besides `clientId` / `clientSecret` (an `issuer` for tenant providers). */
  config?: Record<string, unknown>
  /** What tells this case from the provider's other cases in the test titles (the option it sets). */
  title?: string
  /** Parameters the authorization request must carry (a provider option sent there). */
  authorizationParams?: Record<string, string>
  /** The profile the provider's userinfo endpoint (or ID token) returns. */
  fixture: P
  /** Extra fields of the token response some providers read the profile from. */
  tokens?: TokenSet
  /** The user the fixture must map to. */
  user: User
  /**
   * Answers for other URLs the provider's own hooks call (a second profile request, say),
   * keyed by URL without the query.
   */
  responses?: Record<string, unknown>
}

function endpointUrl(endpoint: string | { url?: string } | undefined): string | undefined {
  return typeof endpoint === "string" ? endpoint : endpoint?.url
}

/** `value` with every leaf replaced by `null`, its shape kept: a profile that names nobody. */
function nameless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nameless)
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, nameless(inner)]))
  return null
}

/** Runs the simulator `start` makes for the enclosing `describe`, with `fetch` sent to it. */
function useSimulator<Simulator extends { fetch: typeof fetch; close(): Promise<void> }>(start: () => Promise<Simulator>): () => Simulator {
  let simulated: Simulator | undefined
  beforeAll(async () => {
    simulated = await start()
    vi.stubGlobal("fetch", simulated.fetch)
  })
  afterAll(async () => {
    vi.unstubAllGlobals()
    await simulated?.close()
  })
  return () => {
    if (simulated === undefined) throw new Error("the simulated provider is not running")
    return simulated
  }
}

/** Runs a simulator answering `data` for the enclosing `describe`, with `fetch` sent to it. */
function useSimulatedProvider(make: () => OAuthConfig<never>, data: Parameters<typeof simulateProvider>[1]): () => SimulatedProvider {
  return useSimulator(() => simulateProvider(make() as OAuthConfig, data))
}

/** The OAuth 1.0a endpoints of a provider configuration (next-auth v4's `version: "1.0A"` shape), if it has them. */
function oauth1Endpoints(provider: object): OAuth1Endpoints | undefined {
  const { requestTokenUrl, accessTokenUrl, profileUrl, authorization } = provider as Partial<OAuth1Endpoints>
  if (requestTokenUrl === undefined || accessTokenUrl === undefined || profileUrl === undefined || authorization === undefined) return undefined
  return { requestTokenUrl, accessTokenUrl, profileUrl, authorization }
}

/** Runs an OAuth 1.0a simulator holding `fixture` for the enclosing `describe`, with `fetch` sent to it. */
export function useSimulatedOAuth1Provider(make: () => OAuthConfig<never>, fixture: Record<string, unknown>): () => SimulatedOAuth1Provider {
  return useSimulator(() => {
    const provider = make()
    const endpoints = oauth1Endpoints(provider)
    if (endpoints === undefined) throw new Error(`provider "${provider.id}" has no OAuth 1.0a endpoints`)
    return simulateOAuth1Provider(endpoints, { consumerKey: provider.clientId ?? "", consumerSecret: provider.clientSecret ?? "" }, fixture)
  })
}

/** The smallest configuration that signs in with `provider`; a strong secret, so core warns of nothing. */
function authConfig(provider: OAuthConfig<never>, error: (error: Error) => void): AuthConfig {
  return { secret: "DVSTu9noe+hQ2cnlVL9jfLuMtpieQli90GwTZ/TKRMM=", trustHost: true, providers: [provider], logger: { error } }
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === "object" && inner !== null) deepFreeze(inner as object)
  return Object.freeze(value)
}

/**
 * Registers the tests every provider passes: the contract (id, https endpoints, style) and the
 * mapping of its fixture to the expected user.
 */
export function testProvider<P>(
  factory: (config: never) => OAuthConfig<P>,
  testCase: ProviderTestCase<P>,
): void {
  const make = (): OAuthConfig<P> =>
    (factory as (config: Record<string, unknown>) => OAuthConfig<P>)({
      clientId: "test-client-id",
      clientSecret: "test-client-secret",
      ...testCase.config,
    })

  const version = testCase.config?.version
  describe(`provider ${make().id}${typeof version === "string" ? ` (version ${version})` : ""}${testCase.title === undefined ? "" : ` (${testCase.title})`}`, () => {
    it("declares an id, a name, a type and a brand style", () => {
      const provider = make()
      expect(provider.id).toMatch(/^[a-z0-9-]+$/)
      expect(provider.name.length).toBeGreaterThan(0)
      expect(["oauth", "oidc"]).toContain(provider.type)
      expect(provider.style?.brandColor).toMatch(/^#[0-9a-fA-F]{3,8}$/)
    })

    it("uses https endpoints only", () => {
      const provider = make()
      const oauth1 = oauth1Endpoints(provider)
      if (oauth1 !== undefined) {
        for (const url of [oauth1.requestTokenUrl, endpointUrl(oauth1.authorization), oauth1.accessTokenUrl, oauth1.profileUrl]) {
          expect(new URL(url ?? "").protocol).toBe("https:")
        }
        return
      }
      const urls = [
        provider.issuer,
        provider.wellKnown,
        endpointUrl(provider.authorization),
        endpointUrl(provider.token),
        endpointUrl(provider.userinfo),
      ].filter((url): url is string => url !== undefined)
      expect(urls.length).toBeGreaterThan(0)
      for (const url of urls) expect(new URL(url).protocol).toBe("https:")
      if (provider.type === "oauth" && provider.wellKnown === undefined) {
        expect(endpointUrl(provider.authorization)).toBeDefined()
        expect(endpointUrl(provider.token)).toBeDefined()
      }
      if (provider.type === "oidc") expect(provider.issuer ?? provider.wellKnown).toBeDefined()
    })

    it("lets the user's options override the defaults without mutating them", () => {
      const first = make()
      const userConfig = deepFreeze({
        clientId: "other",
        clientSecret: "other-secret",
        ...testCase.config,
        name: "Custom name",
        style: { brandColor: "#123456" },
      })
      const custom = (factory as (config: Record<string, unknown>) => OAuthConfig<P>)(userConfig)
      expect(custom.name).toBe("Custom name")
      expect(custom.clientId).toBe("other")
      expect(custom.style?.brandColor).toBe("#123456")
      const again = make()
      expect(again.name).toBe(first.name)
      expect(again.style).toEqual(first.style)
      expect(JSON.stringify(again)).toBe(JSON.stringify(first))
    })

    it("maps its fixture to the session user", async () => {
      const provider = make()
      expect(provider.profile, "a provider maps its own profile").toBeDefined()
      const tokens: TokenSet = oauth1Endpoints(provider)
        ? { oauth_token: "test-oauth-token", oauth_token_secret: "test-oauth-token-secret", ...testCase.tokens }
        : { access_token: "test-access-token", token_type: "bearer", ...testCase.tokens }
      const user = await provider.profile?.(testCase.fixture, tokens)
      expect(user).toEqual(testCase.user)
      expect(typeof user?.id).toBe("string")
      expect(user?.id).not.toBe("")
    })

    if (oauth1Endpoints(make()) !== undefined) {
      describe("through Auth() against a simulated OAuth 1.0a provider", () => {
        const simulated = useSimulatedOAuth1Provider(make, testCase.fixture as Record<string, unknown>)

        it("signs in and shows the mapped user in the session", async () => {
          const errors: string[] = []
          const config = authConfig(make(), (error) => errors.push(`${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`))
          const result = await simulated().signIn((request) => Auth(request, config), make().id).catch((error: unknown) => {
            throw new Error(`${error instanceof Error ? error.message : String(error)}\n${errors.join("\n")}`)
          })
          const { id: _id, ...shown } = testCase.user
          expect(result.session).toMatchObject({ user: { ...shown, id: testCase.user.id } })
          expect(result.accessTokenRequests, "the verifier was exchanged at the access token endpoint").toBeGreaterThanOrEqual(1)
        })
      })

      describe("when the profile names nobody (each field null)", () => {
        const simulated = useSimulatedOAuth1Provider(make, nameless(testCase.fixture) as Record<string, unknown>)

        it("refuses the sign-in with an error code, and starts no session", async () => {
          const errors: string[] = []
          const config = authConfig(make(), (error) => errors.push(`${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`))
          await expect(simulated().signIn((request) => Auth(request, config), make().id)).rejects.toThrow(/^the callback answered 302 \S*[?&]error=OAuthCallbackError/)
          expect(errors.join("\n"), "core refused the profile, not an earlier step").toMatch(/no usable id/)
        })
      })
      return
    }

    describe("through Auth() against a simulated identity provider", () => {
      const simulated = useSimulatedProvider(make, {
        fixture: testCase.fixture as Record<string, unknown>,
        tokens: testCase.tokens,
        responses: testCase.responses,
      })

      it("signs in and shows the mapped user in the session", async () => {
        const errors: string[] = []
        const config = authConfig(make(), (error) => errors.push(`${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`))
        const result = await simulated().signIn((request) => Auth(request, config)).catch((error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}\n${errors.join("\n")}`)
        })
        const { session, tokenRequests, authorization } = result
        const { id: _id, ...shown } = testCase.user
        expect(session).toMatchObject({ user: { ...shown, id: testCase.user.id } })
        expect(tokenRequests, "the code was exchanged at the token endpoint").toBeGreaterThanOrEqual(1)
        if (testCase.authorizationParams !== undefined) expect(Object.fromEntries(authorization.searchParams)).toMatchObject(testCase.authorizationParams)
      })
    })

    // An OpenID provider's subject is the ID token's `sub`, which core checks; a plain OAuth
    // provider's is whatever its `profile` makes of the answers, so that must not invent one.
    if (make().type === "oauth") {
      describe("when every answer names nobody (each field null)", () => {
        const simulated = useSimulatedProvider(make, {
          fixture: nameless(testCase.fixture) as Record<string, unknown>,
          // The token answer stays valid, so the sign-in gets as far as the `profile` callback.
          tokens: testCase.tokens,
          responses: nameless(testCase.responses ?? {}) as Record<string, unknown>,
        })

        it("refuses the sign-in with an error code, and starts no session", async () => {
          const errors: string[] = []
          const config = authConfig(make(), (error) => errors.push(`${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`))
          await expect(simulated().signIn((request) => Auth(request, config))).rejects.toThrow(/^the callback answered 302 \S*[?&]error=OAuthCallbackError/)
          expect(errors.join("\n"), "core refused the profile, not an earlier step").toMatch(/no usable id/)
        })
      })
    }
  })
}
