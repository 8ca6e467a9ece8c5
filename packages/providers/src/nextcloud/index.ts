/**
 * Nextcloud (OAuth 2.0), self-hosted. Add an OAuth 2.0 client under Administration settings →
 * Security with the redirect URI `{origin}/api/auth/callback/nextcloud`. `issuer` is your server
 * URL, e.g. `https://cloud.example.com` (add `/index.php` if pretty URLs are off). The profile
 * comes from the OCS API, which insists on an `OCS-APIRequest: true` header.
 *
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 * @module nextcloud
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record inside `GET {issuer}/ocs/v2.php/cloud/user`. */
export interface NextcloudUser {
  /** The login name. */
  id: string
  enabled: boolean
  displayname: string | null
  "display-name"?: string | null
  email: string | null
  additional_mail?: string[]
  phone?: string
  address?: string
  website?: string
  twitter?: string
  groups: string[]
  language: string
  locale: string
  lastLogin?: number
  backend?: string
  quota?: { free?: number; used: number; total?: number; relative: number; quota: number }
  [claim: string]: unknown
}

/** The response of `GET {issuer}/ocs/v2.php/cloud/user?format=json`. */
export interface NextcloudProfile {
  ocs: {
    meta: { status: string; statuscode: number; message: string }
    data: NextcloudUser
  }
  [claim: string]: unknown
}

/** Nextcloud sign-in for one server. */
export default function Nextcloud(config: OAuthUserConfig<NextcloudProfile> = {}): OAuth2Config<NextcloudProfile> {
  const issuer = tenantIssuer("nextcloud", config, "your Nextcloud server URL, e.g. https://cloud.example.com")
  const server = issuer.replace(/\/+$/, "")
  const userinfoUrl = `${server}/ocs/v2.php/cloud/user?format=json`
  return oauthProvider<OAuth2Config<NextcloudProfile>>(
    {
      id: "nextcloud",
      name: "Nextcloud",
      type: "oauth",
      authorization: `${server}/apps/oauth2/authorize`,
      token: `${server}/apps/oauth2/api/v1/token`,
      userinfo: {
        url: userinfoUrl,
        async request({ tokens, url, fetch }) {
          const response = await fetch(url ?? userinfoUrl, {
            headers: {
              Authorization: `Bearer ${tokens.access_token ?? ""}`,
              "OCS-APIRequest": "true",
              Accept: "application/json",
            },
          })
          return (await response.json()) as NextcloudProfile
        },
      },
      checks: ["state"],
      profile: ({ ocs: { data } }) => ({
        id: data.id,
        name: data.displayname || data.id,
        email: data.email || null,
        image: null,
      }),
      style: { logo, brandColor: "#0082c9" },
    },
    config,
  )
}
