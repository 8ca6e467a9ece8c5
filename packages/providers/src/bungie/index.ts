/**
 * Bungie.net (OAuth 2.0). Register a confidential application at https://www.bungie.net/en/Application
 * with the redirect URL `{origin}/api/auth/callback/bungie`. Every API call needs the application's API key
 * in `X-API-Key`, so pass it as `apiKey`. Bungie never shares an email address.
 *
 * @see https://github.com/Bungie-net/api/wiki/OAuth-Documentation
 * @module bungie
 */
import { incompleteProvider } from "@portcullis/core/providers"
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The `Response` of `GET /Platform/User/GetMembershipsForCurrentUser/` (a `User.UserMembershipData`). */
export interface BungieProfile {
  bungieNetUser: {
    membershipId: string
    uniqueName: string
    displayName: string
    cachedBungieGlobalDisplayName?: string
    cachedBungieGlobalDisplayNameCode?: number
    profilePicture: number
    profilePicturePath: string
    locale: string
    firstAccess: string
    lastUpdate?: string
    about: string
    [field: string]: unknown
  }
  destinyMemberships: {
    membershipId: string
    membershipType: number
    displayName: string
    bungieGlobalDisplayName?: string
    iconPath: string
    crossSaveOverride: number
    [field: string]: unknown
  }[]
  primaryMembershipId?: string
  [claim: string]: unknown
}

/** The options of {@link Bungie}: the usual ones plus the application's API key. */
export interface BungieUserConfig extends OAuthUserConfig<BungieProfile> {
  /** The "API Key" shown on your application's page at bungie.net. */
  apiKey?: string
}

interface BungieEnvelope {
  Response?: BungieProfile
  ErrorCode: number
  ErrorStatus: string
  Message: string
}

/**
 * Bungie.net sign-in. Without `apiKey` it is left out of sign-in, and `Auth()` logs that it needs one.
 */
export default function Bungie(config: BungieUserConfig = {}): OAuth2Config<BungieProfile> {
  const { apiKey = "", ...options } = config
  const provider = oauthProvider<OAuth2Config<BungieProfile>>(
    {
      id: "bungie",
      name: "Bungie",
      type: "oauth",
      authorization: "https://www.bungie.net/en/OAuth/Authorize",
      token: "https://www.bungie.net/platform/app/oauth/token/",
      userinfo: {
        url: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/",
        async request({ tokens, url, fetch }) {
          const headers = { Authorization: `Bearer ${tokens.access_token ?? ""}`, "X-API-Key": apiKey }
          const target = url ?? "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/"
          const body = (await (await fetch(target, { headers })).json()) as BungieEnvelope
          // The platform wraps every answer; a failure still comes back as JSON with an ErrorStatus.
          if (body.Response === undefined) throw new Error(`Bungie: ${body.ErrorStatus}: ${body.Message}`)
          return body.Response
        },
      },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.bungieNetUser.membershipId,
        name: profile.bungieNetUser.cachedBungieGlobalDisplayName ?? profile.bungieNetUser.displayName,
        email: null,
        image: `https://www.bungie.net${profile.bungieNetUser.profilePicturePath}`,
      }),
      style: { logo, brandColor: "#000000" },
    },
    options,
  )
  return apiKey === "" ? incompleteProvider(provider, "set `apiKey` (your application's API key, from https://www.bungie.net/en/Application)") : provider
}
