/**
 * EVE Online SSO (OAuth 2.0). Create an application at https://developers.eveonline.com with the
 * callback URL `{origin}/api/auth/callback/eveonline` ("Authentication Only" is enough). A
 * character signs in, not an account: there is no email, and the id is the character ID.
 *
 * @see https://developers.eveonline.com/docs/services/sso/
 * @module eveonline
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The record of `GET https://login.eveonline.com/oauth/verify`. */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  ExpiresOn: string
  Scopes: string
  TokenType: string
  CharacterOwnerHash: string
  IntellectualProperty: string
  [claim: string]: unknown
}

/** EVE Online sign-in. */
export default function EVEOnline(config: OAuthUserConfig<EVEOnlineProfile> = {}): OAuth2Config<EVEOnlineProfile> {
  return oauthProvider<OAuth2Config<EVEOnlineProfile>>(
    {
      id: "eveonline",
      name: "EVE Online",
      type: "oauth",
      authorization: { url: "https://login.eveonline.com/v2/oauth/authorize", params: { scope: "publicData" } },
      token: "https://login.eveonline.com/v2/oauth/token",
      userinfo: "https://login.eveonline.com/oauth/verify",
      profile: (profile) => ({
        id: String(profile.CharacterID),
        name: profile.CharacterName,
        email: null,
        image: `https://images.evetech.net/characters/${profile.CharacterID}/portrait?size=128`,
      }),
      style: { brandColor: "#1b1b1b" },
    },
    config,
  )
}
