/**
 * Battle.net (OpenID Connect). Create a client at https://develop.battle.net/access/clients with
 * the redirect URL `{origin}/api/auth/callback/battlenet`. The default `issuer` serves every
 * region but China; for China set `issuer: "https://oauth.battlenet.com.cn"`. Battle.net shares no
 * email address, name or avatar: the display name is the BattleTag.
 *
 * @see https://develop.battle.net/documentation/guides/using-oauth
 * @module battlenet
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OIDCConfig, OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of Battle.net's ID token. */
export interface BattleNetProfile {
  iss: string
  aud: string
  azp?: string
  exp: number
  iat: number
  auth_time?: number
  jti?: string
  at_hash?: string
  nonce?: string
  /** The numeric account id, as a string. */
  sub: string
  /** `Name#1234`. */
  battle_tag: string
  [claim: string]: unknown
}

/** Battle.net sign-in. */
export default function BattleNet(config: OIDCUserConfig<BattleNetProfile> = {}): OIDCConfig<BattleNetProfile> {
  return oauthProvider<OIDCConfig<BattleNetProfile>>(
    {
      id: "battlenet",
      name: "Battle.net",
      type: "oidc",
      issuer: "https://oauth.battle.net",
      authorization: { params: { scope: "openid" } },
      // The discovery document advertises no PKCE support.
      checks: ["nonce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.battle_tag,
        email: null,
        image: null,
      }),
      style: { logo, brandColor: "#148eff" },
    },
    config,
  )
}
