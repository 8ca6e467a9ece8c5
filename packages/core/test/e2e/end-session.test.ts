// OpenID Connect RP-initiated logout (`endSessionOnSignOut`) against the real OpenID Provider:
// signing out here ends the provider's session too, so the next sign-in asks for the password.
import { describe, expect, it } from "vitest"
import { APP, CLIENT, Harness, PROVIDER_IDS, e2eConfig, errorOf, idpProvider, startIdp, useIdp } from "./harness.js"
import type { Page } from "@portcullis/test-kit/browser"

const POST_LOGOUT = PROVIDER_IDS.map((id) => `${APP}/api/auth/signout/callback/${id}`)

const idp = useIdp({
  logoutConfirmation: "auto",
  clients: [
    {
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      redirect_uris: PROVIDER_IDS.map((id) => `${APP}/api/auth/callback/${id}`),
      post_logout_redirect_uris: POST_LOGOUT,
      grant_types: ["authorization_code", "refresh_token"],
    },
  ],
})

/** Whether the page is the provider's login form (the provider has no session for this browser). */
function isLoginForm(page: Page): boolean {
  return new URL(page.url).origin !== APP && page.body.includes('name="password"')
}

async function signOut(harness: Harness, callbackUrl = `${APP}/goodbye`): Promise<Page> {
  return harness.browser.navigate(`${APP}/api/auth/signout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await harness.csrfToken(), callbackUrl }),
    initiator: `${APP}/api/auth/signout`,
  })
}

describe("endSessionOnSignOut", () => {
  it("ends the provider's session: the sign-out passes through its end_session_endpoint with the ID token, and the next sign-in asks for the password", async () => {
    const harness = new Harness(e2eConfig([idpProvider(idp(), { endSessionOnSignOut: true })]))
    expect(new URL((await harness.signIn()).url).pathname).toBe("/protected")

    const requests = idp().requests.length
    const landed = await signOut(harness)
    expect(landed.url).toBe(`${APP}/goodbye`)
    expect(await harness.session()).toBeNull()
    const ended = idp().requests.slice(requests).find((request) => request.method === "GET" && request.path === "/session/end")
    expect(ended).toBeDefined()
    const query = new URLSearchParams(ended?.search ?? "")
    expect(query.get("client_id")).toBe(CLIENT.id)
    expect(query.get("post_logout_redirect_uri")).toBe(`${APP}/api/auth/signout/callback/idp`)
    expect(query.get("id_token_hint")?.split(".")).toHaveLength(3)
    expect(query.get("state")?.length).toBeGreaterThanOrEqual(32)

    expect(isLoginForm(await harness.startSignIn("idp"))).toBe(true)
  })

  it("leaves the provider's session alone without the option: the next sign-in needs no password", async () => {
    const harness = new Harness(e2eConfig([idpProvider(idp())]))
    await harness.signIn()
    expect((await signOut(harness)).url).toBe(`${APP}/goodbye`)
    expect(await harness.session()).toBeNull()
    const again = await harness.startSignIn("idp")
    expect(isLoginForm(again)).toBe(false)
    expect(new URL(again.url).origin).toBe(APP)
  })

  it("refuses a sign-out callback whose state is not this browser's, and one no sign-out started", async () => {
    const config = e2eConfig([idpProvider(idp(), { endSessionOnSignOut: true })])
    const harness = new Harness(config)
    await harness.signIn()
    // Stop at the provider's redirect: the browser holds the sign-out's state cookie.
    const response = await harness.browser.request(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await harness.csrfToken(), callbackUrl: `${APP}/goodbye` }),
      initiator: `${APP}/api/auth/signout`,
    })
    const location = new URL(response.headers.get("location") ?? "")
    expect(location.searchParams.get("state")).toBeTruthy()
    const forged = await harness.browser.navigate(`${APP}/api/auth/signout/callback/idp?state=forged`)
    expect(errorOf(forged)).toBe("InvalidCheck")
    // Only the right state spends the cookie: it ends the sign-out once, and a replay is refused.
    const real = `${APP}/api/auth/signout/callback/idp?state=${location.searchParams.get("state") ?? ""}`
    expect((await harness.browser.navigate(real)).url).toBe(`${APP}/goodbye`)
    expect(errorOf(await harness.browser.navigate(real))).toBe("InvalidCheck")

    const stranger = new Harness(config)
    expect(errorOf(await stranger.browser.navigate(`${APP}/api/auth/signout/callback/idp?state=x`))).toBe("InvalidCheck")
    expect(errorOf(await stranger.browser.navigate(`${APP}/api/auth/signout/callback/nobody?state=x`))).toBe("InvalidProvider")
  })

  it("keeps the ID token for the next sign-out when a cross-site link hits the sign-out callback with a forged or no state (RP-Initiated Logout 1.0 §2/§3, ASVS 3.5.3)", async () => {
    const harness = new Harness(e2eConfig([idpProvider(idp(), { endSessionOnSignOut: true })]))
    await harness.signIn()
    for (const query of ["?state=forged", ""]) {
      const planted = await harness.browser.navigate(`${APP}/api/auth/signout/callback/idp${query}`, { initiator: "https://evil.example/" })
      expect(errorOf(planted)).toBe("InvalidCheck")
    }

    const requests = idp().requests.length
    expect((await signOut(harness)).url).toBe(`${APP}/goodbye`)
    const ended = idp().requests.slice(requests).find((request) => request.method === "GET" && request.path === "/session/end")
    expect(new URLSearchParams(ended?.search ?? "").get("id_token_hint")?.split(".")).toHaveLength(3)
    expect(isLoginForm(await harness.startSignIn("idp"))).toBe(true)
  })

  it("signs out here only, with a warning, when the provider has no end_session_endpoint", async () => {
    const bare = await startIdp({ endSession: false })
    try {
      const warnings: string[] = []
      const config = e2eConfig([idpProvider(bare, { endSessionOnSignOut: true })])
      config.logger = { ...config.logger, warn: (code) => warnings.push(code) }
      const harness = new Harness(config)
      await harness.signIn()
      expect((await signOut(harness)).url).toBe(`${APP}/goodbye`)
      expect(await harness.session()).toBeNull()
      expect(warnings).toContain("EndSessionUnsupported")
    } finally {
      await bare.close()
    }
  })

  it("refuses a non-boolean endSessionOnSignOut at start", async () => {
    const config = e2eConfig([idpProvider(idp(), { endSessionOnSignOut: "yes" as never })])
    const response = await new Harness(config).browser.request(`${APP}/api/auth/providers`)
    expect(response.status).toBe(503)
    expect(config.errors.join("\n")).toMatch(/endSessionOnSignOut.*boolean/)
  })
})
