/**
 * WorkOS SSO (OAuth 2.0 over each customer's SAML or OIDC connection). Add the redirect URI
 * `{origin}/api/auth/callback/workos` in the WorkOS dashboard, use the environment's client id and API key
 * as `clientId` / `clientSecret`, and name the target with the `connection` option (Auth.js's) or an
 * `organization`, `connection` or `provider` authorization parameter, e.g.
 * `authorization: { params: { organization: "org_..." } }`.
 *
 * @see https://workos.com/docs/reference/sso
 * @module workos
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The Profile object of `GET https://api.workos.com/sso/profile`. */
export interface WorkOSProfile {
  object: string
  id: string
  organization_id: string | null
  connection_id: string
  connection_type: string
  idp_id: string
  email: string
  first_name: string | null
  last_name: string | null
  role?: { slug: string }
  groups?: string[]
  custom_attributes?: Record<string, unknown>
  raw_attributes?: Record<string, unknown>
  [claim: string]: unknown
}

/** What `WorkOS()` takes: the OAuth options, and the SSO connection to sign in through. */
export type WorkOSOptions = OAuthUserConfig<WorkOSProfile> & {
  /** The connection id (`conn_...`), sent as the `connection` authorization parameter. */
  connection?: string
}

/** WorkOS sign-in. */
export default function WorkOS(options: WorkOSOptions = {}): OAuth2Config<WorkOSProfile> {
  const { connection, ...config } = options
  return oauthProvider<OAuth2Config<WorkOSProfile>>(
    {
      id: "workos",
      name: "WorkOS",
      type: "oauth",
      // An empty connection (an unset environment variable) names no target, as in Auth.js.
      authorization: { url: "https://api.workos.com/sso/authorize", params: connection ? { connection } : {} },
      token: "https://api.workos.com/sso/token",
      userinfo: "https://api.workos.com/sso/profile",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email,
        image: null,
      }),
      style: { brandColor: "#6363f1" },
    },
    config,
  )
}
