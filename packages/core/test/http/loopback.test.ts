/**
 * The one definition of loopback, and the three places that let the server speak plain http
 * to it (OAuth 2 and OAuth 1.0a endpoints with `allowInsecureLoopbackRequests`, an email API's
 * `apiUrl`): they all accept exactly the same hosts, and none that DNS could send elsewhere.
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import { Configuration } from "../../src/errors/errors.js"
import { isLoopbackAddress, isLoopbackHost } from "../../src/http/loopback.js"
import { oauth1 } from "../../src/oauth1/index.js"
import { emailApiOptions } from "../../src/providers/email.js"
import { acmeProvider, testConfig } from "../helpers.js"

const hostname = (url: string): string => new URL(url).hostname

/** Hosts on this machine without DNS, as URLs spell them. */
const ADDRESSES = ["http://localhost:9", "http://127.0.0.1:9", "http://127.0.0.2:9", "http://127.255.255.255", "http://[::1]:9", "http://127.1", "http://0x7f.0.0.1", "http://2130706433", "http://LOCALHOST"]
/** Names a browser takes as this machine, but Node resolves through DNS. */
const LOCALHOST_SUBDOMAINS = ["http://idp.localhost:9", "http://a.b.localhost"]
/** Hosts that only look like loopback. */
const LOOKALIKES = [
  "http://localhost.evil.example",
  "http://127.0.0.1.nip.io",
  "http://127.0.0.1.evil.example",
  "http://evil-localhost",
  "http://localhostx",
  "http://[::ffff:127.0.0.1]",
  "http://[::]",
  "http://0.0.0.0",
  "http://128.0.0.1",
  "http://10.0.0.1",
  "http://localhost.",
  "http://169.254.169.254",
  "http://[fe80::1]",
]

describe("loopback", () => {
  it.each(ADDRESSES)("%s is a loopback address and a loopback host", (url) => {
    expect(isLoopbackAddress(hostname(url))).toBe(true)
    expect(isLoopbackHost(hostname(url))).toBe(true)
  })

  it.each(LOCALHOST_SUBDOMAINS)("%s is a loopback host for browser origins, but no address a plain-http request may reach", (url) => {
    expect(isLoopbackHost(hostname(url))).toBe(true)
    expect(isLoopbackAddress(hostname(url))).toBe(false)
  })

  it.each(LOOKALIKES)("%s is neither", (url) => {
    expect(isLoopbackHost(hostname(url))).toBe(false)
    expect(isLoopbackAddress(hostname(url))).toBe(false)
  })
})

/** The three consumers, each answering whether it accepts `url` over plain http. */
const CONSUMERS: Record<string, (url: string) => Promise<boolean>> = {
  "OAuth 2 endpoints": (url) => accepts(() => resolveConfig(testConfig({ providers: [acmeProvider({ token: `${url}/token`, allowInsecureLoopbackRequests: true })] }))),
  "OAuth 1.0a endpoints": (url) =>
    accepts(() =>
      oauth1.configure(
        {
          id: "acme",
          name: "Acme",
          type: "oauth",
          clientId: "key",
          clientSecret: "secret",
          requestTokenUrl: "https://api.acme.example/oauth/request_token",
          authorization: "https://api.acme.example/oauth/authenticate",
          accessTokenUrl: `${url}/oauth/access_token`,
          profileUrl: "https://api.acme.example/me",
          allowInsecureLoopbackRequests: true,
        },
        {},
      ),
    ),
  "an email API's apiUrl": (url) => accepts(() => emailApiOptions("acme-mail", "Acme Mail", { apiKey: "key", apiUrl: url }, "https://api.acme.example")),
}

async function accepts(configure: () => unknown): Promise<boolean> {
  try {
    await configure()
    return true
  } catch (error) {
    if (!(error instanceof Configuration)) throw error
    return false
  }
}

describe.each(Object.entries(CONSUMERS))("plain http for %s", (_name, accept) => {
  it.each(ADDRESSES)("is allowed to %s", async (url) => {
    expect(await accept(url)).toBe(true)
  })

  it.each([...LOCALHOST_SUBDOMAINS, ...LOOKALIKES])("is refused to %s", async (url) => {
    expect(await accept(url)).toBe(false)
  })

  it("is refused to any other host", async () => {
    expect(await accept("http://api.acme.example")).toBe(false)
  })
})
