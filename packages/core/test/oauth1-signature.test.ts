/**
 * The OAuth 1.0a HMAC-SHA1 signature against the values the specifications publish: RFC 5849's
 * own walk-through (section 1.2) and base-string example (section 3.4.1.1), and X's worked example.
 */
import { describe, expect, it } from "vitest"
import { authorizationHeader, hmacSha1Signature, percentEncode, signatureBaseString } from "../src/oauth1/signature.js"

const client = { consumerSecret: "kd94hf93k423kf44" }

describe("RFC 5849 HMAC-SHA1", () => {
  it("signs the temporary credentials request of section 1.2", async () => {
    const base = signatureBaseString("POST", new URL("https://photos.example.net/initiate"), [
      ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131200"],
      ["oauth_nonce", "wIjqoS"],
      ["oauth_callback", "http://printer.example.com/ready"],
    ])
    expect(await hmacSha1Signature(base, client.consumerSecret)).toBe("74KNZJeDHnMBp0EMJ9ZHt/XKycU=")
  })

  it("signs the token request of section 1.2 with the temporary secret", async () => {
    const base = signatureBaseString("POST", new URL("https://photos.example.net/token"), [
      ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
      ["oauth_token", "hh5s93j4hdidpola"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "walatlh"],
      ["oauth_verifier", "hfdp7dh39dks9884"],
    ])
    expect(await hmacSha1Signature(base, client.consumerSecret, "hdhd0244k9j7ao03")).toBe("gKgrFCywp7rO0OXSjdot/IHF7IU=")
  })

  it("signs the resource request of section 1.2, its query included", async () => {
    const base = signatureBaseString("GET", new URL("http://photos.example.net/photos?file=vacation.jpg&size=original"), [
      ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
      ["oauth_token", "nnch734d00sl2jdk"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131202"],
      ["oauth_nonce", "chapoH"],
    ])
    expect(await hmacSha1Signature(base, client.consumerSecret, "pfkkdhi9sl3r4s00")).toBe("MdpQcU8iPSUjWoN/UDMsK2sui9I=")
  })

  it("builds the base string of section 3.4.1.1: repeated names, empty values, encoded keys", () => {
    const base = signatureBaseString("POST", new URL("http://EXAMPLE.COM:80/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"), [
      ["oauth_consumer_key", "9djdj82h48djs9d2"],
      ["oauth_token", "kkk9d7dh3k39sjv7"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "7d8f3e4a"],
      ["oauth_signature", "ignored"],
      ["c2", ""],
      ["a3", "2 q"],
    ])
    expect(base).toBe(
      "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7",
    )
  })

  it("percent-encodes what encodeURIComponent leaves alone, and UTF-8", () => {
    expect(percentEncode("Ladies + Gentlemen")).toBe("Ladies%20%2B%20Gentlemen")
    expect(percentEncode("An encoded string!")).toBe("An%20encoded%20string%21")
    expect(percentEncode("Dogs, Cats & Mice")).toBe("Dogs%2C%20Cats%20%26%20Mice")
    expect(percentEncode("(it's)*☃")).toBe("%28it%27s%29%2A%E2%98%83")
  })
})

describe("X's documented signature example", () => {
  it("produces the header signature of the statuses/update walk-through", async () => {
    const header = await authorizationHeader(
      "POST",
      new URL("https://api.twitter.com/1.1/statuses/update.json?include_entities=true"),
      {
        consumerKey: "xvz1evFS4wEEPTGEFPHBog",
        consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
      },
      {},
      new URLSearchParams({ status: "Hello Ladies + Gentlemen, a signed OAuth request!" }),
      { timestamp: "1318622958", nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg" },
    )
    expect(header).toMatch(/^OAuth /)
    expect(header).toContain(`oauth_signature="${percentEncode("hCtSmYh+iHYCEqBWrE7C7hYmtUk=")}"`)
    expect(header).toContain('oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"')
  })
})
