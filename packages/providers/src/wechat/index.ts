/**
 * WeChat website login (OAuth 2.0, QR code). Create a website application on https://open.weixin.qq.com and
 * set its authorized callback domain to your origin's host. WeChat renames the client credentials `appid` and
 * `secret`, exchanges the code with a GET, returns no `token_type`, and needs the `openid` to read the profile.
 *
 * @see https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html
 * @module wechat
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { Configuration, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://api.weixin.qq.com/sns/userinfo`. */
export interface WeChatProfile {
  /** The user's id for this application. */
  openid: string
  nickname: string
  /** 1 male, 2 female, 0 unknown. */
  sex: number
  province: string
  city: string
  country: string
  headimgurl: string
  privilege: string[]
  /** The user's id across the developer's applications, once they are bound to an Open Platform account. */
  unionid?: string
  [claim: string]: unknown
}

/** WeChat's own option. */
export interface WeChatOptions {
  /**
   * Where the sign-in happens: `"WebsiteApp"` (a QR code on a website, scope `snsapi_login`), the
   * default here, or `"OfficialAccount"` (inside WeChat, through an official account, scope
   * `snsapi_userinfo`), Auth.js's default.
   */
  platformType?: "OfficialAccount" | "WebsiteApp"
}

/** WeChat sign-in. */
export default function WeChat(options: OAuthUserConfig<WeChatProfile> & WeChatOptions = {}): OAuth2Config<WeChatProfile> {
  const { platformType = "WebsiteApp", ...config } = options
  // A caller without types may pass anything.
  const platform: unknown = platformType
  if (platform !== "WebsiteApp" && platform !== "OfficialAccount") {
    throw new Configuration('Provider "wechat": `platformType` must be "WebsiteApp" or "OfficialAccount".')
  }
  const inWeChat = platformType === "OfficialAccount"
  return oauthProvider<OAuth2Config<WeChatProfile>>(
    {
      id: "wechat",
      name: "WeChat",
      type: "oauth",
      authorization: {
        url: inWeChat ? "https://open.weixin.qq.com/connect/oauth2/authorize" : "https://open.weixin.qq.com/connect/qrconnect",
        params: { scope: inWeChat ? "snsapi_userinfo" : "snsapi_login", appid: config.clientId },
      },
      token: {
        url: "https://api.weixin.qq.com/sns/oauth2/access_token",
        async request({ params, url, fetch, provider }) {
          const query = new URLSearchParams({
            appid: provider.clientId ?? "",
            secret: provider.clientSecret ?? "",
            code: params.code,
            grant_type: "authorization_code",
          })
          const target = `${url ?? "https://api.weixin.qq.com/sns/oauth2/access_token"}?${query}`
          // A failure is a 200 with `errcode`; without an access_token the answer is rejected as invalid.
          const body = (await (await fetch(target)).json()) as Record<string, unknown>
          return { tokens: { ...body, token_type: "bearer" } }
        },
      },
      userinfo: {
        url: "https://api.weixin.qq.com/sns/userinfo",
        async request({ tokens, url, fetch }) {
          const openid = typeof tokens.openid === "string" ? tokens.openid : ""
          const query = new URLSearchParams({ access_token: tokens.access_token ?? "", openid, lang: "en" })
          return (await (await fetch(`${url ?? "https://api.weixin.qq.com/sns/userinfo"}?${query}`)).json()) as WeChatProfile
        },
      },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.openid,
        name: profile.nickname,
        email: null,
        image: profile.headimgurl === "" ? null : profile.headimgurl,
      }),
      style: { logo, brandColor: "#07c160" },
    },
    config,
  )
}
