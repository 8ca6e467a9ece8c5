/**
 * Type test, compiled by `pnpm typecheck` (`tsc --strict`) and never run: every option of
 * Auth.js 0.41.3's OAuth / OpenID Connect provider configuration (`@auth/core`, installed as
 * `authjs-core`) is accepted by ours with a value of Auth.js's own type. The keys are read from
 * Auth.js's types with `keyof`, so an option Auth.js adds fails here until ours takes it too.
 */
import type { customFetch as authjsCustomFetch } from "authjs-core"
import type * as Authjs from "authjs-core/providers"
import type { Profile as AuthjsProfile } from "authjs-core/types"
import type { customFetch } from "../../src/index.js"
import type { OAuth2Config, OAuthConfig, OAuthUserConfig, OIDCConfig, OIDCUserConfig } from "../../src/providers/index.js"

/** A provider's own profile, as a factory types it. */
interface AcmeProfile {
  sub: string
  name?: string
  email?: string
  [claim: string]: unknown
}

/**
 * The keys of Auth.js's `T` an app can write: each named key, and each symbol `@auth/core`
 * exports (`customFetch`). Its `[conformInternal]` is exported by no entry of `@auth/core`: no
 * app can set it.
 */
type WritableKeys<T> = Extract<keyof T, string> | Extract<keyof T, typeof authjsCustomFetch>

/** The key an app writes once the codemod moved its imports to us: the same name, or our `customFetch` for Auth.js's. */
type OurKey<K> = K extends typeof authjsCustomFetch ? typeof customFetch : K

/** For each of Auth.js's keys: `true` when ours takes a value of Auth.js's type for it, else why not. */
type Fits<Theirs, Ours> = {
  [K in WritableKeys<Theirs>]-?: OurKey<K> extends keyof Ours ? ([Theirs[K]] extends [Ours[OurKey<K>]] ? true : "our type refuses Auth.js's value") : "our type lacks the key"
}

/** Compiles only when every key fits: the error names the first key that does not, and why. */
type AllFit<T extends Record<PropertyKey, true>> = T

export type UserConfigs = [
  AllFit<Fits<Authjs.OAuthUserConfig<AcmeProfile>, OAuthUserConfig<AcmeProfile>>>,
  AllFit<Fits<Authjs.OIDCUserConfig<AcmeProfile>, OIDCUserConfig<AcmeProfile>>>,
  AllFit<Fits<Authjs.OAuthUserConfig<AuthjsProfile>, OAuthUserConfig<AuthjsProfile>>>,
]

export type FullConfigs = [
  AllFit<Fits<Authjs.OAuth2Config<AcmeProfile>, OAuth2Config<AcmeProfile>>>,
  AllFit<Fits<Authjs.OIDCConfig<AcmeProfile>, OIDCConfig<AcmeProfile>>>,
  AllFit<Fits<Authjs.OAuthConfig<AcmeProfile>, OAuthConfig<AcmeProfile>>>,
]

/** The keys above are Auth.js's own, not none: a `keyof` that lost them would make every check pass. */
export type Covered = AllFit<{
  [K in "clientId" | "checks" | "client" | "token" | "wellKnown" | "jwks_endpoint" | typeof authjsCustomFetch]: K extends WritableKeys<Authjs.OAuthUserConfig<AcmeProfile>> ? true : false
}>

/*
 * Auth.js's published `.d.ts` erases the endpoint objects (`authorization`, `token`, `userinfo`)
 * to `any`: their `EndpointHandler` is `@internal` and stripped. The keys its source gives them
 * (`src/providers/oauth.ts`: `url`, `params: Record<string, unknown>`, `conform`,
 * `clientPrivateKey: CryptoKey | PrivateKey`, `request`) are written out here, with values of
 * those types.
 */
declare const key: CryptoKey
declare const params: Record<string, unknown>

export const endpoints: OAuthUserConfig<AcmeProfile> = {
  authorization: { url: "https://acme.example/authorize", params },
  token: { url: "https://acme.example/token", params, clientPrivateKey: key, conform: (response: Response) => response },
  userinfo: { url: "https://acme.example/userinfo", params, request: () => ({ sub: "1" }) },
  client: { token_endpoint_auth_method: "private_key_jwt" },
}

export const keyWithKid: OIDCUserConfig<AcmeProfile> = { token: { clientPrivateKey: { key, kid: "k1" } }, checks: ["nonce"] }
