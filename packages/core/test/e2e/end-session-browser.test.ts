// RP-initiated logout in real Chromium: the built-in sign-in and sign-out pages, the real OpenID
// Provider. After signing out, the provider asks for the password again; without
// `endSessionOnSignOut` it would sign the browser straight back in.
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { CLIENT, SECRET } from "./harness.js"

let served: ServedHandler
let idp: DevIdp
let browser: Browser
let config: AuthConfig

beforeAll(async () => {
  served = await serveHandler((request) => {
    const url = new URL(request.url)
    if (url.pathname.startsWith("/api/auth")) return Auth(request, config)
    return new Response(`<p>app page ${url.pathname}</p>`, { headers: { "content-type": "text/html" } })
  })
  idp = await startDevIdp({
    consent: "auto",
    logoutConfirmation: "auto",
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${served.origin}/api/auth/callback/idp`],
        post_logout_redirect_uris: [`${served.origin}/api/auth/signout/callback/idp`],
      },
    ],
  })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser.close()
  await idp.close()
  await served.close()
})

function configure(endSessionOnSignOut: boolean): void {
  config = {
    secret: SECRET,
    trustHost: true,
    providers: [
      { id: "idp", name: "Demo IdP", type: "oidc", issuer: idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, allowInsecureLoopbackRequests: true, endSessionOnSignOut },
    ],
    logger: { error: () => undefined, warn: () => undefined },
  }
}

/** Starts a sign-in from the built-in page and returns where the browser stops: the provider's login form, or back at the app. */
async function startSignIn(page: Page): Promise<"login form" | "signed in"> {
  await page.goto(`${served.origin}/api/auth/signin?callbackUrl=${encodeURIComponent(`${served.origin}/home`)}`)
  await page.click("text=Sign in with Demo IdP")
  await page.waitForURL((url) => url.pathname === "/home" || url.origin === new URL(idp.issuer).origin)
  if (new URL(page.url()).pathname === "/home") return "signed in"
  await page.waitForSelector("input[name=password]")
  return "login form"
}

async function signInAndOut(page: Page): Promise<void> {
  expect(await startSignIn(page)).toBe("login form")
  await page.fill("input[name=login]", "alice@example.com")
  await page.fill("input[name=password]", "alice-password")
  await page.click("button[type=submit]")
  await page.waitForURL(`${served.origin}/home`)
  await page.goto(`${served.origin}/api/auth/signout?callbackUrl=${encodeURIComponent(`${served.origin}/bye`)}`)
  await page.click("button[type=submit]")
  await page.waitForURL(`${served.origin}/bye`)
  const session = await page.evaluate(async () => (await fetch("/api/auth/session")).json() as Promise<unknown>)
  expect(session).toBeNull()
}

describe("signing out at the provider, in Chromium", () => {
  it("shows the provider's login form on the next sign-in after a sign-out with endSessionOnSignOut", async () => {
    configure(true)
    const context = await browser.newContext()
    const page = await context.newPage()
    await signInAndOut(page)
    expect(await startSignIn(page)).toBe("login form")
    await context.close()
  })

  it("signs straight back in without it: the provider's session outlived the sign-out", async () => {
    configure(false)
    const context = await browser.newContext()
    const page = await context.newPage()
    await signInAndOut(page)
    expect(await startSignIn(page)).toBe("signed in")
    await context.close()
  })
})
