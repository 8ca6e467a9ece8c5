/**
 * Facebook Login (OAuth 2.0). Create an app at https://developers.facebook.com/apps, add Facebook Login and
 * the valid OAuth redirect URI `{origin}/api/auth/callback/facebook`. The Graph API returns only the
 * fields asked for, hence the `fields` parameter; `email` is absent for accounts without a confirmed one.
 *
 * @see https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 * @module facebook
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user node of `GET https://graph.facebook.com/me?fields=id,name,email,picture`. */
export interface FacebookProfile {
  id: string
  name: string
  email?: string
  first_name?: string
  last_name?: string
  picture?: { data: { url: string; width: number; height: number; is_silhouette: boolean } }
  [claim: string]: unknown
}

/** Facebook sign-in. */
export default function Facebook(config: OAuthUserConfig<FacebookProfile> = {}): OAuth2Config<FacebookProfile> {
  return oauthProvider<OAuth2Config<FacebookProfile>>(
    {
      id: "facebook",
      name: "Facebook",
      type: "oauth",
      authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "public_profile email" } },
      token: "https://graph.facebook.com/oauth/access_token",
      userinfo: { url: "https://graph.facebook.com/me", params: { fields: "id,name,email,picture.type(large)" } },
      // PKCE is documented only for the OpenID Connect variant of the manual flow.
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name,
        email: profile.email ?? null,
        image: profile.picture?.data.url ?? null,
      }),
      style: { logo, brandColor: "#0866ff" },
    },
    config,
  )
}
