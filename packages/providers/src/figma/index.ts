/**
 * Figma (OAuth 2.0). Create an app at https://www.figma.com/developers/apps with the callback
 * URL `{origin}/api/auth/callback/figma` and the `current_user:read` scope (the default here;
 * the old `files:read` scope is deprecated). Figma requires a `state` parameter.
 *
 * @see https://developers.figma.com/docs/rest-api/oauth-apps/
 * @module figma
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://api.figma.com/v1/me`. */
export interface FigmaProfile {
  id: string
  handle: string
  email: string
  img_url: string
  [claim: string]: unknown
}

/** Figma sign-in. */
export default function Figma(config: OAuthUserConfig<FigmaProfile> = {}): OAuth2Config<FigmaProfile> {
  return oauthProvider<OAuth2Config<FigmaProfile>>(
    {
      id: "figma",
      name: "Figma",
      type: "oauth",
      authorization: { url: "https://www.figma.com/oauth", params: { scope: "current_user:read" } },
      token: "https://api.figma.com/v1/oauth/token",
      userinfo: "https://api.figma.com/v1/me",
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.handle,
        email: profile.email,
        image: profile.img_url,
      }),
      style: { logo, brandColor: "#f24e1e" },
    },
    config,
  )
}
