/**
 * NetSuite, in either of two shapes. As OpenID Connect provider (ours): create an integration record
 * with "NetSuite as OIDC Provider", the redirect URI `{origin}/api/auth/callback/netsuite`, and set
 * `issuer` to your account's SuiteTalk host, `https://<accountID>.suitetalk.api.netsuite.com`, with
 * the account id in domain form (lowercase, `_` as `-`: `1234567_SB1` becomes `1234567-sb1`).
 * As OAuth 2.0 with a RESTlet (Auth.js's): set `accountID` (or an `issuer` that is an account id,
 * not a URL) and `userinfo`, the URL of a RESTlet that returns `runtime.getCurrentUser()`; `scope`
 * defaults to `"restlets rest_webservices"`. NetSuite rejects `http://` redirects.
 *
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_160855370280.html
 * @module netsuite
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { Configuration, incompleteProvider, tenantIssuer, userFromClaims, type OAuth2Config, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The userinfo claims of NetSuite for the `openid email` scopes. */
export interface NetSuiteProfile {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  [claim: string]: unknown
}

/** What `runtime.getCurrentUser()` returns from the RESTlet of the OAuth 2.0 shape. */
export interface NetSuiteRestletProfile {
  id: number
  name: string
  email: string
  location?: number
  role?: number
  roleId?: string
  roleCenter?: string
  contact?: number
  subsidiary?: number
  department?: number
  [field: string]: unknown
}

/** NetSuite's own options: those of Auth.js's OAuth 2.0 shape, and the scope and prompt of either. */
export interface NetSuiteOptions {
  /** The account id (`TSTDRV1234567`, `81555`, `1234567_SB1`): chooses the OAuth 2.0 shape. */
  accountID?: string
  /** The scopes asked for. OAuth 2.0 shape: default `"restlets rest_webservices"`; OpenID Connect shape: must include `openid`. */
  scope?: string
  /** The `prompt` authorization parameter: `"none"`, `"login"`, `"consent"` or `"login consent"`. */
  prompt?: string
}

const ACCOUNT_ID = /^[a-z0-9-]+$/

/**
 * NetSuite sign-in: OpenID Connect with an `issuer` URL, or OAuth 2.0 with a RESTlet profile when
 * `accountID` (or an `issuer` that is not a URL) names the account.
 *
 * Without `issuer` (or `AUTH_NETSUITE_ISSUER`), or in the OAuth 2.0 shape without `userinfo`, it is left
 * out of sign-in, and `Auth()` logs what to set.
 *
 * @throws {Configuration} when the account id is not one, or the OpenID Connect shape's `scope` lacks `openid`.
 */
export default function NetSuite(
  options: OIDCUserConfig<NetSuiteProfile> & NetSuiteOptions = {},
): OIDCConfig<NetSuiteProfile> | OAuth2Config<NetSuiteRestletProfile> {
  const { accountID, scope, prompt, ...config } = options
  const account = accountID ?? (config.issuer !== undefined && !config.issuer.includes("://") ? config.issuer : undefined)
  if (account !== undefined) return restletShape(account, scope, prompt, config)
  if (scope !== undefined && !scope.split(" ").includes("openid")) {
    throw new Configuration('Provider "netsuite": with an `issuer` URL NetSuite is an OpenID Connect provider, so `scope` must include "openid" (or set `accountID` for the OAuth 2.0 shape).')
  }
  const issuer = tenantIssuer("netsuite", config, "your account's SuiteTalk URL, e.g. https://1234567.suitetalk.api.netsuite.com")
  return oauthProvider<OIDCConfig<NetSuiteProfile>>(
    {
      id: "netsuite",
      name: "NetSuite",
      type: "oidc",
      issuer,
      authorization: { params: { scope: scope ?? "openid email", ...(prompt === undefined ? {} : { prompt }) } },
      idToken: false,
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#125580" },
    },
    config,
  )
}

/** Auth.js's shape: OAuth 2.0 at the account's own hosts, the profile from the app's RESTlet. */
function restletShape(
  accountID: string,
  scope: string | undefined,
  prompt: string | undefined,
  config: OIDCUserConfig<NetSuiteProfile>,
): OAuth2Config<NetSuiteRestletProfile> {
  // The account's hosts spell the id in lowercase with `-` for `_` (1234567_SB1 is 1234567-sb1).
  const host = accountID.toLowerCase().replaceAll("_", "-")
  if (!ACCOUNT_ID.test(host)) throw new Configuration('Provider "netsuite": `accountID` must be a NetSuite account id, such as "1234567" or "1234567_SB1".')
  // The issuer held the account id, and an OAuth 2.0 provider has no ID token to read.
  const oauth: Partial<OIDCUserConfig<NetSuiteProfile>> = { ...config }
  delete oauth.issuer
  delete oauth.idToken
  const provider = oauthProvider<OAuth2Config<NetSuiteRestletProfile>>(
    {
      id: "netsuite",
      name: "NetSuite",
      type: "oauth",
      authorization: {
        url: `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl`,
        params: { scope: scope ?? "restlets rest_webservices", ...(prompt === undefined ? {} : { prompt }) },
      },
      token: `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token`,
      checks: ["state"],
      profile: (user) => ({ id: String(user.id), name: user.name, email: user.email, image: null }),
      style: { brandColor: "#125580" },
    },
    oauth as Partial<OAuth2Config<NetSuiteRestletProfile>>,
  )
  // The profile comes only from the app's own RESTlet: without it the provider is left out, as a missing issuer leaves it out.
  return config.userinfo === undefined
    ? incompleteProvider(provider, "set `userinfo` to the URL of a RESTlet that returns runtime.getCurrentUser() (with `accountID`, NetSuite is Auth.js's OAuth 2.0 shape)")
    : provider
}
