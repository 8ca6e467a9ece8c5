/**
 * What the OAuth 1.0a flow accepts as a provider configuration: next-auth v4's four endpoints,
 * https only (plain http on loopback when allowed), credentials from the options or the
 * environment, and timeouts like OAuth 2's.
 */
import { describe, expect, it } from "vitest"
import { Configuration } from "../src/errors/errors.js"
import { oauth1 } from "../src/oauth1/index.js"

const provider = {
  id: "acme",
  name: "Acme",
  type: "oauth",
  clientId: "key",
  clientSecret: "secret",
  requestTokenUrl: "https://api.acme.example/oauth/request_token",
  authorization: "https://api.acme.example/oauth/authenticate",
  accessTokenUrl: "https://api.acme.example/oauth/access_token",
  profileUrl: "https://api.acme.example/1.1/me.json?include_email=true",
}

describe("OAuth 1.0a configuration", () => {
  it("reads the four endpoints, keeping the profile URL's query and the authorization params", () => {
    const options = oauth1.configure({ ...provider, authorization: { url: provider.authorization, params: { force_login: "true" } } }, {})
    expect(options.profileUrl.href).toBe(provider.profileUrl)
    expect(options.authorizationUrl.href).toBe("https://api.acme.example/oauth/authenticate?force_login=true")
    expect([options.timeout, options.callbackTimeout]).toEqual([5_000, 15_000])
  })

  it("reads the API key and secret from AUTH_<ID>_ID and AUTH_<ID>_SECRET", () => {
    const { clientId: _id, clientSecret: _secret, ...bare } = provider
    expect(oauth1.configure(bare, { AUTH_ACME_ID: "env-key", AUTH_ACME_SECRET: "env-secret" })).toMatchObject({ clientId: "env-key", clientSecret: "env-secret" })
    expect(() => oauth1.configure(bare, {})).toThrow(/AUTH_ACME_ID/)
    expect(() => oauth1.configure({ ...bare, clientId: "k" }, {})).toThrow(/AUTH_ACME_SECRET/)
  })

  it("refuses a plain http endpoint, except on loopback when allowed", () => {
    expect(() => oauth1.configure({ ...provider, accessTokenUrl: "http://api.acme.example/oauth/access_token" }, {})).toThrow(Configuration)
    expect(() => oauth1.configure({ ...provider, profileUrl: "http://127.0.0.1:4000/me" }, {})).toThrow(/profileUrl/)
    expect(oauth1.configure({ ...provider, profileUrl: "http://127.0.0.1:4000/me", allowInsecureLoopbackRequests: true }, {}).profileUrl.href).toBe("http://127.0.0.1:4000/me")
  })

  it("names a missing endpoint, a request token in the params, and a bad timeout", () => {
    const { requestTokenUrl: _missing, ...withoutRequestToken } = provider
    expect(() => oauth1.configure(withoutRequestToken, {})).toThrow(/requestTokenUrl/)
    expect(() => oauth1.configure({ ...provider, authorization: { url: provider.authorization, params: { oauth_token: "fixed" } } }, {})).toThrow(/oauth_token/)
    expect(() => oauth1.configure({ ...provider, timeout: 0 }, {})).toThrow(/timeout/)
  })
})
