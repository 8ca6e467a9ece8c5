import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import WeChat from "./index.js"

const base = {
  fixture,
  user: {
    id: "oR3xK5tS0l2M8nQ9pW4vY7zA1bC6",
    name: "李晓梅",
    email: null,
    image: "https://thirdwx.qlogo.cn/mmopen/vi_32/Q0j4TwGTfTKx8bR2c7yPzM3fVb1nLwK9uA5sD6eFgH0iJkLmNoPqRsTuVwXyZ/132",
  },
}

testProvider(WeChat, base)

// Auth.js's `WeChat({ platformType: "OfficialAccount" })`: the sign-in inside WeChat, through an official account.
testProvider(WeChat, {
  ...base,
  title: "platformType OfficialAccount",
  config: { platformType: "OfficialAccount" },
  authorizationParams: { scope: "snsapi_userinfo" },
})

describe("WeChat platformType", () => {
  it("sends the browser to WeChat's in-app page for OfficialAccount, and the QR code page for WebsiteApp (the default)", () => {
    expect(WeChat({ platformType: "OfficialAccount" }).authorization).toMatchObject({ url: "https://open.weixin.qq.com/connect/oauth2/authorize" })
    expect(WeChat({ platformType: "WebsiteApp" }).authorization).toMatchObject({ url: "https://open.weixin.qq.com/connect/qrconnect", params: { scope: "snsapi_login" } })
    expect(WeChat().authorization).toMatchObject({ url: "https://open.weixin.qq.com/connect/qrconnect" })
  })

  it("refuses another platform at start, naming the option", () => {
    expect(() => WeChat({ platformType: "MiniProgram" as never })).toThrow(/`platformType`/)
  })
})
