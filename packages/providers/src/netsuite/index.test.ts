import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import NetSuite, { type NetSuiteProfile, type NetSuiteRestletProfile } from "./index.js"
import { incompleteProblem, type OAuth2Config, type OIDCConfig } from "@portcullis/core/providers"

// The OpenID Connect shape: an `issuer` URL.
testProvider(NetSuite as (config: never) => OIDCConfig<NetSuiteProfile>, {
  config: { issuer: "https://1234567.suitetalk.api.netsuite.com" },
  fixture,
  user: {
    id: "4172913",
    name: "Maya Goldberg",
    email: "maya.goldberg@example.com",
    image: null,
  },
})

describe("NetSuite configuration", () => {
  it("names the missing issuer", () => {
    expect(() => NetSuite({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(NetSuite({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_NETSUITE_ISSUER \(/)
  })
})

const restletUser = { id: 4172913, name: "Maya Goldberg", email: "maya.goldberg@example.com", location: 1, role: 3, subsidiary: 1 }
const restlet = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1"

// Auth.js's shape: OAuth 2.0 at the account's hosts, the profile from the app's RESTlet.
testProvider(NetSuite as (config: never) => OAuth2Config<NetSuiteRestletProfile>, {
  title: "accountID and a RESTlet userinfo",
  config: { accountID: "1234567_SB1", userinfo: restlet, prompt: "login", scope: "restlets" },
  authorizationParams: { prompt: "login", scope: "restlets" },
  fixture: restletUser,
  user: { id: "4172913", name: "Maya Goldberg", email: "maya.goldberg@example.com", image: null },
})

describe("NetSuite in Auth.js's shape", () => {
  it("is OAuth 2.0 at the account's own hosts, with the RESTlet as userinfo", () => {
    const provider = NetSuite({ accountID: "1234567_SB1", userinfo: restlet })
    expect(provider.type).toBe("oauth")
    expect(provider.authorization).toEqual({
      url: "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl",
      params: { scope: "restlets rest_webservices" },
    })
    expect(provider.token).toBe("https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token")
    expect(provider.userinfo).toBe(restlet)
    expect(provider).not.toHaveProperty("accountID")
  })

  it("reads an issuer that is an account id, not a URL, as the account", () => {
    const provider = NetSuite({ issuer: "1234567", userinfo: restlet })
    expect(provider.type).toBe("oauth")
    expect(provider.issuer).toBeUndefined()
    expect(provider.token).toBe("https://1234567.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token")
  })

  it("is left out, naming `userinfo`, when the RESTlet is missing (as a missing issuer is)", () => {
    expect(incompleteProblem(NetSuite({ accountID: "1234567" }))).toMatch(/^set `userinfo`/)
    expect(incompleteProblem(NetSuite({ accountID: "1234567", userinfo: restlet }))).toBeUndefined()
  })

  it("refuses an account id that is not one (it becomes a host name), naming `accountID`", () => {
    expect(() => NetSuite({ accountID: "evil.example/x", userinfo: restlet })).toThrow(/`accountID`/)
  })

  it("keeps the OpenID Connect shape's scope an OpenID one, naming `scope`", () => {
    expect(NetSuite({ issuer: "https://1234567.suitetalk.api.netsuite.com", scope: "openid email restlets", prompt: "consent" }).authorization).toEqual({
      params: { scope: "openid email restlets", prompt: "consent" },
    })
    expect(() => NetSuite({ issuer: "https://1234567.suitetalk.api.netsuite.com", scope: "restlets" })).toThrow(/`scope`/)
  })
})

