/**
 * The test app (test/app: an app written as next-auth v5's docs show, importing @portcullis/nextjs),
 * built once and served by `next start`, in real Chromium against a real OpenID Provider.
 * The tests run in order: they follow one visitor from signed out to signed in and out again.
 */
import type { APIResponse, Browser, BrowserContext, Page } from "playwright-core"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import { launchChromium } from "@portcullis/dev-idp/chromium"
import { scaled } from "@portcullis/test-time"

const app = inject("appUrl")
const issuer = inject("idpIssuer")

let browser: Browser
let context: BrowserContext
let page: Page
const authorizeUrls: URL[] = []

beforeAll(async () => {
  console.info(`next build took ${inject("buildSeconds").toFixed(1)} s`)
  browser = await launchChromium()
  context = await browser.newContext()
  page = await context.newPage()
  recordAuthorizeUrls(context)
})

/** Keeps every authorization request a context sends to the IdP. */
function recordAuthorizeUrls(on: BrowserContext): void {
  on.on("request", (request) => {
    const url = new URL(request.url())
    if (url.origin === issuer && url.pathname === "/auth") authorizeUrls.push(url)
  })
}

afterAll(async () => {
  await browser.close()
})

function sessionCookies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter(({ name, value }) => name.toLowerCase() === "set-cookie" && value.startsWith("authjs.session-token="))
    .map(({ value }) => value)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

it("shows a signed-out visitor as signed out in a server component", async () => {
  await page.goto(`${app}/`)
  await expect.poll(() => page.locator("#status").textContent()).toBe("Signed out")
  await expect.poll(() => page.locator("#client-status").textContent()).toBe("unauthenticated")
})

it("signs in entirely on the edge runtime, and the catch-all parameter never reaches the IdP", async () => {
  // A context of its own: the other tests expect this browser signed out at first.
  const edgeContext = await browser.newContext()
  recordAuthorizeUrls(edgeContext)
  try {
    const edge = await edgeContext.newPage()
    await edge.goto(`${app}/api/edge-auth/signin`)
    await edge.getByRole("button", { name: "Sign in with Demo IdP" }).click()
    await edge.waitForURL((at) => at.origin === issuer && at.pathname.startsWith("/interaction/"))
    const authorize = authorizeUrls.at(-1)
    expect(authorize?.searchParams.get("redirect_uri")).toBe(`${app}/api/edge-auth/callback/idp`)
    const params = [...(authorize?.searchParams.keys() ?? [])]
    expect(params.filter((name) => name === "nextauth" || name.startsWith("nxt"))).toEqual([])
    // The callback, code exchange and ID token checks run on the edge runtime too.
    await edge.getByLabel("Email").fill("alice@example.com")
    await edge.getByLabel("Password").fill("alice-password")
    await edge.getByRole("button", { name: "Sign in", exact: true }).click()
    await edge.waitForURL((at) => at.origin === app && !at.pathname.startsWith("/api/edge-auth/callback"), { timeout: scaled(15_000) })
    expect(new URL(edge.url()).searchParams.get("error")).toBeNull()
    const session = await edgeContext.request.get(`${app}/api/edge-auth/session`)
    expect(((await session.json()) as { user?: { email?: string } } | null)?.user?.email).toBe("alice@example.com")
  } finally {
    await edgeContext.close()
  }
})

it("sends a signed-out visitor from a middleware-protected page to sign in, with a way back", async () => {
  await page.goto(`${app}/protected`)
  const url = new URL(page.url())
  expect(url.pathname).toBe("/api/auth/signin")
  expect(url.searchParams.get("callbackUrl")).toBe("/protected")
})

it("signs in with a server action through the IdP, and server and client components show the user", async () => {
  await page.goto(`${app}/`)
  await page.getByRole("button", { name: "Sign in with Demo IdP" }).click()
  await page.waitForURL((at) => at.origin === issuer && at.pathname.startsWith("/interaction/"))
  await page.getByLabel("Email").fill("alice@example.com")
  await page.getByLabel("Password").fill("alice-password")
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.waitForURL(`${app}/`, { timeout: scaled(10_000) }).catch(() => {
    throw new Error(`the sign-in ended at ${page.url()}`)
  })
  await expect.poll(() => page.locator("#status").textContent()).toBe("Signed in as alice@example.com")
  await expect.poll(() => page.locator("#client-status").textContent()).toBe("Client sees alice@example.com")
})

it("lets a signed-in visitor through the middleware-protected page", async () => {
  await page.goto(`${app}/protected`)
  expect(new URL(page.url()).pathname).toBe("/protected")
  expect(await page.locator("#protected").textContent()).toBe("Protected content for alice@example.com")
})

it("reads the session with auth() in an edge route handler", async () => {
  const response = await context.request.get(`${app}/api/edge`)
  expect(response.status()).toBe(200)
  const body = (await response.json()) as { runtime: string; session: { user?: { email?: string } } | null }
  expect(body.runtime).toBe("edge")
  expect(body.session?.user?.email).toBe("alice@example.com")
})

it("updates the session from a route handler with unstable_update, through the jwt and session callbacks", async () => {
  const updated = await context.request.post(`${app}/api/update`, { data: { nickname: "Ally" } })
  expect(((await updated.json()) as { session: { nickname?: string } | null }).session?.nickname).toBe("Ally")
  const read = await context.request.get(`${app}/api/me`)
  expect(((await read.json()) as { session: { nickname?: string } | null }).session?.nickname).toBe("Ally")
})

it("gives a route handler wrapped in auth() the session as request.auth", async () => {
  const response = await context.request.get(`${app}/api/wrapped`)
  expect(await response.json()).toEqual({ email: "alice@example.com" })
})

it("forwards a due session renewal from auth() in a route handler, and only when due", async () => {
  await sleep(2_100)
  const renewed = await context.request.get(`${app}/api/me`)
  expect(sessionCookies(renewed)).toHaveLength(1)
  const again = await context.request.get(`${app}/api/me`)
  expect(sessionCookies(again)).toEqual([])
  expect(((await again.json()) as { session: { user?: { email?: string } } | null }).session?.user?.email).toBe("alice@example.com")
})

it("forwards a due session renewal from the middleware", async () => {
  await sleep(2_100)
  const response = await context.request.get(`${app}/protected`, { maxRedirects: 0 })
  expect(response.status()).toBe(200)
  expect(sessionCookies(response)).toHaveLength(1)
})

it("reads a forged session cookie as signed out, not as an error", async () => {
  const forged = await browser.newContext()
  await forged.addCookies([{ name: "authjs.session-token", value: "eyJhbGciOiJkaXIifQ.forged.token.value.x", url: app }])
  const response = await forged.request.get(`${app}/api/me`)
  expect(response.status()).toBe(200)
  expect(await response.json()).toEqual({ session: null })
  const protectedPage = await forged.request.get(`${app}/protected`, { maxRedirects: 0 })
  expect(protectedPage.status()).toBe(307)
  await forged.close()
})

it("renders a server component while a renewal is due, which it cannot set", async () => {
  await sleep(2_100)
  const response = await page.goto(`${app}/`)
  expect(response?.status()).toBe(200)
  expect(await page.locator("#status").textContent()).toBe("Signed in as alice@example.com")
})

it("signs out with a server action", async () => {
  await page.goto(`${app}/`)
  await page.getByRole("button", { name: "Sign out" }).click()
  await expect.poll(() => page.locator("#status").textContent()).toBe("Signed out")
  const response = await context.request.get(`${app}/api/me`)
  expect(await response.json()).toEqual({ session: null })
})

async function passwordSignIn(password: string): Promise<{ url: URL; status: string | null }> {
  const other = await browser.newContext()
  const login = await other.newPage()
  await login.goto(`${app}/login`)
  await login.getByLabel("Username").fill("carol")
  await login.getByLabel("Password").fill(password)
  await login.getByRole("button", { name: "Sign in with password" }).click()
  await login.waitForURL((at) => at.pathname !== "/login")
  const result = { url: new URL(login.url()), status: await login.locator("#status").textContent({ timeout: scaled(2_000) }).catch(() => null) }
  await other.close()
  return result
}

it("signs in with credentials from a server action's FormData", async () => {
  const { url, status } = await passwordSignIn("carol-password")
  expect(url.pathname).toBe("/")
  expect(status).toBe("Signed in as carol@example.com")
})

it("refuses a wrong password from a server action with the sign-in page's error", async () => {
  const { url } = await passwordSignIn("wrong-password")
  expect(url.pathname).toBe("/api/auth/signin")
  expect(url.searchParams.get("error")).toBe("CredentialsSignin")
})

it("logs no error on the server for any of the above but the refused password", () => {
  const errors = readFileSync(inject("serverLog"), "utf8")
    .split("\n")
    .filter((line) => /\[auth\]\[error\]|⨯|Error:/.test(line))
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatch(/^\[auth\]\[error\] \w+: The `authorize` of provider "password" refused the credentials\.$/)
})
