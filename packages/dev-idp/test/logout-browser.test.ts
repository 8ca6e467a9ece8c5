/**
 * RP-initiated logout in real Chromium: a relying party served on localhost signs alice in, ends
 * the IdP session at the end-session endpoint (through the "Sign out?" page, and without it), and
 * the next sign-in shows the IdP's login form again.
 */
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { launchChromium } from "@portcullis/test-kit/chromium"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { scaled } from "@portcullis/test-time"
import { startDevIdp, type DevIdp } from "../src/index.js"
import { insecure } from "./relying-party.js"

type Browser = Awaited<ReturnType<typeof launchChromium>>
type Page = Awaited<ReturnType<Browser["newPage"]>>

let served: ServedHandler
let browser: Browser
const idps = new Map<string, DevIdp>()
/** The ID token of the last sign-in, per IdP. */
const idTokens = new Map<string, string>()
const pending = new Map<string, { verifier: string; idp: string }>()

async function metadata(idp: DevIdp): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(idp.issuer)
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure))
}

/** The relying party: `/login?idp=<name>` starts a code flow, `/callback` redeems the code, `/logged-out` is the post-logout page. */
async function relyingParty(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const html = (body: string) => new Response(`<!doctype html><title>RP</title>${body}`, { headers: { "content-type": "text/html" } })
  if (url.pathname === "/login") {
    const name = url.searchParams.get("idp") ?? ""
    const idp = idps.get(name)
    if (idp === undefined) return new Response("unknown idp", { status: 404 })
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    pending.set(state, { verifier, idp: name })
    const authorize = new URL(String((await metadata(idp)).authorization_endpoint))
    authorize.search = new URLSearchParams({
      client_id: "app",
      redirect_uri: `${served.origin}/callback`,
      response_type: "code",
      scope: "openid email",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString()
    return new Response(null, { status: 302, headers: { location: authorize.href } })
  }
  if (url.pathname === "/callback") {
    const flow = pending.get(url.searchParams.get("state") ?? "")
    const idp = flow === undefined ? undefined : idps.get(flow.idp)
    if (flow === undefined || idp === undefined) return new Response("unknown state", { status: 400 })
    const as = await metadata(idp)
    const client = { client_id: "app" }
    const params = oauth.validateAuthResponse(as, client, url.searchParams, url.searchParams.get("state") ?? "")
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic("app-secret"),
      params,
      `${served.origin}/callback`,
      flow.verifier,
      insecure,
    )
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: true })
    idTokens.set(flow.idp, String(result.id_token))
    return html("<h1>Signed in to the app</h1>")
  }
  if (url.pathname === "/logged-out") return html(`<h1>Signed out of the app</h1><p id="state">${url.searchParams.get("state") ?? ""}</p>`)
  return new Response("not found", { status: 404 })
}

beforeAll(async () => {
  served = await serveHandler(relyingParty)
  const client = {
    client_id: "app",
    client_secret: "app-secret",
    redirect_uris: [`${served.origin}/callback`],
    post_logout_redirect_uris: [`${served.origin}/logged-out`],
  }
  idps.set("prompt", await startDevIdp({ consent: "auto", clients: [client] }))
  idps.set("auto", await startDevIdp({ consent: "auto", logoutConfirmation: "auto", clients: [client] }))
  browser = await launchChromium()
}, scaled(120_000))

afterAll(async () => {
  await browser.close()
  for (const idp of idps.values()) await idp.close()
  await served.close()
})

/** A fresh browser context; collects Content-Security-Policy violations reported on the console. */
async function newPage(): Promise<{ page: Page; cspErrors: string[] }> {
  const page = await (await browser.newContext()).newPage()
  const cspErrors: string[] = []
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) cspErrors.push(message.text())
  })
  return { page, cspErrors }
}

async function signIn(page: Page, idp: string): Promise<void> {
  await page.goto(`${served.origin}/login?idp=${idp}`)
  await page.fill("#login", "alice@example.com")
  await page.fill("#password", "alice-password")
  await Promise.all([page.waitForURL(`${served.origin}/callback?**`), page.click("button[type=submit]")])
  expect(await page.textContent("h1")).toBe("Signed in to the app")
}

function endSessionUrl(idp: string, state: string): string {
  const params = new URLSearchParams({
    id_token_hint: idTokens.get(idp) ?? "",
    client_id: "app",
    state,
    post_logout_redirect_uri: `${served.origin}/logged-out`,
  })
  return `${idps.get(idp)?.issuer ?? ""}/session/end?${params.toString()}`
}

/** Starts a sign-in and says whether the IdP asked for the password (its session was gone). */
async function showsLoginForm(page: Page, idp: string): Promise<boolean> {
  await page.goto(`${served.origin}/login?idp=${idp}`)
  return new URL(page.url()).pathname.startsWith("/interaction/") && (await page.locator("#password").count()) === 1
}

describe("RP-initiated logout in Chromium", () => {
  it("asks Sign out?, and after it the next sign-in shows the login form", async () => {
    const { page, cspErrors } = await newPage()
    await signIn(page, "prompt")
    expect(await showsLoginForm(page, "prompt")).toBe(false)

    await page.goto(endSessionUrl("prompt", "st-chromium"))
    expect(await page.textContent("h1")).toBe("Sign out?")
    await Promise.all([page.waitForURL(`${served.origin}/logged-out?**`), page.click("button[value=yes]")])
    expect(await page.textContent("#state")).toBe("st-chromium")

    expect(await showsLoginForm(page, "prompt")).toBe(true)
    expect(cspErrors).toEqual([])
  })

  it("with logoutConfirmation: auto, goes straight back to the app, signed out of the IdP", async () => {
    const { page, cspErrors } = await newPage()
    await signIn(page, "auto")
    expect(await showsLoginForm(page, "auto")).toBe(false)

    await page.goto(endSessionUrl("auto", "st-auto"))
    expect(page.url()).toBe(`${served.origin}/logged-out?state=st-auto`)
    expect(await page.textContent("#state")).toBe("st-auto")

    expect(await showsLoginForm(page, "auto")).toBe(true)
    expect(cspErrors).toEqual([])
  })
})
