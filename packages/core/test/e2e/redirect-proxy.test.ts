import { TestBrowser } from "@portcullis/test-kit/browser"
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import type { InternalOAuthProvider } from "../../src/oauth/provider.js"
import { Auth } from "../../src/index.js"
import { APP, e2eConfig, idpProvider, useIdp } from "./harness.js"

// The stable deployment (registered at the provider) is APP; a preview deployment runs elsewhere
// with the same secret and sends its sign-ins through the stable one.
const PREVIEW = "http://preview.example:3001"

const idp = useIdp()

function deployments() {
  const config = () =>
    e2eConfig([idpProvider(idp(), { checks: ["pkce", "nonce"] })], { redirectProxyUrl: `${APP}/api/auth`, url: APP, allowedOrigins: [PREVIEW] })
  const stable = config()
  const preview = config()
  const browser = new TestBrowser({
    routes: {
      [APP]: (request) => Auth(request, stable),
      [PREVIEW]: (request) =>
        new URL(request.url).pathname.startsWith("/api/auth") ? Auth(request, preview) : new Response("preview page", { headers: { "content-type": "text/html" } }),
    },
  })
  return { stable, preview, browser }
}

describe("redirectProxyUrl", () => {
  it("adds the state check, which carries the origin that started the sign-in", async () => {
    const config = await resolveConfig(e2eConfig([idpProvider(idp(), { checks: ["pkce"] })], { redirectProxyUrl: `${APP}/api/auth` }))
    const provider = config.providers[0]
    expect([...(provider?.type === "oidc" ? (provider.options as InternalOAuthProvider).checks : [])].sort()).toEqual(["pkce", "state"])
  })

  it("signs in on a preview deployment through the stable callback URL and lands back on the preview", async () => {
    const { browser } = deployments()
    const csrf = (await (await browser.request(`${PREVIEW}/api/auth/csrf`)).json()) as { csrfToken: string }
    const login = await browser.navigate(`${PREVIEW}/api/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: "/after" }),
      initiator: `${PREVIEW}/api/auth/signin`,
    })
    expect(login.redirects[1]).toContain(encodeURIComponent(`${APP}/api/auth/callback/idp`))
    let page = await browser.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
    if (new URL(page.url).origin !== PREVIEW) page = await browser.submitForm(page, { button: "Allow" })
    expect(page.url).toBe(`${PREVIEW}/after`)
    expect(page.redirects.some((url) => url.startsWith(`${APP}/api/auth/callback/idp?`))).toBe(true)
    const previewSession: unknown = await (await browser.request(`${PREVIEW}/api/auth/session`)).json()
    expect(previewSession).toMatchObject({ user: { email: "alice@example.com" } })
    expect(await (await browser.request(`${APP}/api/auth/session`)).json()).toBeNull()
  })

  it("does not forward a callback whose state this secret did not seal (no open redirect for codes)", async () => {
    const { browser, stable } = deployments()
    const forged = await browser.navigate(`${APP}/api/auth/callback/idp?code=stolen&state=not-sealed&iss=${encodeURIComponent(idp().issuer)}`)
    expect(new URL(forged.url).origin).toBe(APP)
    expect(new URL(forged.url).searchParams.get("error")).toBe("InvalidCheck")
    expect(stable.errors.join("\n")).toMatch(/state/)
  })
})
