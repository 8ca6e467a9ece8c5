/**
 * Foursquare (OAuth 2.0, v2 API). Create an app at https://foursquare.com/developers/apps with the redirect
 * URI `{origin}/api/auth/callback/foursquare`. The code is exchanged with a GET request, the token answer
 * has no `token_type`, and the v2 API takes the token as `oauth_token` plus a required version date `v`.
 *
 * @see https://docs.foursquare.com/developer/reference/authentication
 * @module foursquare
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { Configuration, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The `response.user` record of `GET https://api.foursquare.com/v2/users/self`. */
export interface FoursquareProfile {
  id: string
  firstName: string
  lastName?: string
  gender?: string
  relationship?: string
  canonicalUrl?: string
  homeCity?: string
  photo: { prefix: string; suffix: string; default?: boolean }
  contact: { email?: string; phone?: string; verifiedPhone?: string; [field: string]: unknown }
  [claim: string]: unknown
}

/** Foursquare's own option. */
export interface FoursquareOptions {
  /** The API version date (`YYYYMMDD`) sent with every v2 call as `v`. Default `"20240101"`. */
  apiVersion?: string
}

/** Foursquare sign-in. */
export default function Foursquare(options: OAuthUserConfig<FoursquareProfile> & FoursquareOptions = {}): OAuth2Config<FoursquareProfile> {
  const { apiVersion = "20240101", ...config } = options
  if (!/^\d{8}$/.test(apiVersion)) throw new Configuration('Provider "foursquare": `apiVersion` must be a date as YYYYMMDD, such as "20240101".')
  return oauthProvider<OAuth2Config<FoursquareProfile>>(
    {
      id: "foursquare",
      name: "Foursquare",
      type: "oauth",
      authorization: "https://foursquare.com/oauth2/authenticate",
      token: {
        url: "https://foursquare.com/oauth2/access_token",
        async request({ params, url, fetch, provider }) {
          const query = new URLSearchParams({
            client_id: provider.clientId ?? "",
            client_secret: provider.clientSecret ?? "",
            grant_type: "authorization_code",
            redirect_uri: params.redirect_uri,
            code: params.code,
          })
          const body = (await (await fetch(`${url ?? "https://foursquare.com/oauth2/access_token"}?${query}`)).json()) as Record<string, unknown>
          return { tokens: { ...body, token_type: "bearer" } }
        },
      },
      userinfo: {
        url: "https://api.foursquare.com/v2/users/self",
        async request({ tokens, url, fetch }) {
          const query = new URLSearchParams({ oauth_token: tokens.access_token ?? "", v: apiVersion })
          const body = (await (await fetch(`${url ?? "https://api.foursquare.com/v2/users/self"}?${query}`)).json()) as {
            response: { user: FoursquareProfile }
          }
          return body.response.user
        },
      },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: [profile.firstName, profile.lastName].filter(Boolean).join(" "),
        email: profile.contact.email ?? null,
        image: profile.photo.default === true ? null : `${profile.photo.prefix}original${profile.photo.suffix}`,
      }),
      style: { logo, brandColor: "#f94877" },
    },
    config,
  )
}
