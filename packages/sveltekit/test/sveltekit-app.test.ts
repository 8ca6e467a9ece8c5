/**
 * The test app (test/app: written as @auth/sveltekit's docs show, importing @portcullis/sveltekit),
 * installed from the packed packages, built with `vite build` on adapter-node and served by
 * `node build`, in real Chromium against a real OpenID Provider. The tests run in order: they
 * follow one visitor from signed out to signed in and out again, through each kind of provider.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, inject, it, vi } from "vitest"
import { decode, encode } from "@portcullis/core/jwt"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { scaled } from "@portcullis/test-time"
import { AUTH_SECRET, CLIENT, DEFAULT_CSRF_CLIENT } from "./sveltekit-app.js"

const app = inject("app")
const appDir = inject("appDir")
const issuer = inject("idpIssuer")
const linkFile = inject("linkFile")
const defaultCsrfApp = inject("defaultCsrfApp")
const idpControl = inject("idpControl")

let browser: Browser
let context: BrowserContext
let page: Page
/** Every authorization request the main browser sends to the IdP. */
const authorizeUrls: URL[] = []

const SESSION_COOKIE = "authjs.session-token"

/**
 * Makes the context's session `seconds` older instead of waiting them out: its claims sealed
 * again, with the app's secret and cookie name, while this process's clock reads that far back
 * (the app decides a renewal from `iat`, which the seal sets from the clock).
 */
async function ageSession(on: BrowserContext, seconds: number): Promise<void> {
  const cookie = (await on.cookies(app)).find(({ name }) => name === SESSION_COOKIE) ?? expect.unreachable("the context holds no session cookie")
  const claims = (await decode({ token: cookie.value, secret: AUTH_SECRET, salt: SESSION_COOKIE })) ?? expect.unreachable("the session cookie does not open")
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - seconds * 1000 })
  try {
    await on.addCookies([{ ...cookie, value: await encode({ token: claims, secret: AUTH_SECRET, salt: SESSION_COOKIE }) }])
  } finally {
    vi.useRealTimers()
  }
}

beforeAll(async () => {
  console.info(
    `installing the packed packages took ${inject("installSeconds").toFixed(1)} s, vite build ${inject("buildSeconds").toFixed(1)} s, ` +
      `the build with SvelteKit's CSRF check on ${inject("defaultCsrfBuildSeconds").toFixed(1)} s`,
  )
  browser = await launchChromium()
  context = await browser.newContext()
  page = await context.newPage()
  context.on("request", (request) => {
    const url = new URL(request.url())
    if (url.origin === issuer && url.pathname === "/auth") authorizeUrls.push(url)
  })
})

afterAll(async () => {
  await browser.close()
})

/** Waits for the page to reach `url`, failing with where it is instead. */
async function arrive(on: Page, url: string | ((at: URL) => boolean)): Promise<void> {
  await on.waitForURL(url, { timeout: scaled(10_000) }).catch(async () => {
    throw new Error(`expected another page, the browser is at ${on.url()}:\n${(await on.locator("body").textContent()) ?? ""}`)
  })
}

async function loginAtIdp(on: Page, account = { email: "alice@example.com", password: "alice-password" }): Promise<void> {
  await arrive(on, (at) => at.origin === issuer && at.pathname.startsWith("/interaction/"))
  await on.getByLabel("Email").fill(account.email)
  await on.getByLabel("Password").fill(account.password)
  await on.getByRole("button", { name: "Sign in", exact: true }).click()
}

async function status(): Promise<string | null> {
  return page.locator("#status").textContent()
}

async function signOutHere(): Promise<void> {
  await page.goto(`${app}/`)
  await page.getByRole("button", { name: "Sign out" }).click()
  await expect.poll(status).toBe("Signed out")
  const response = await context.request.get(`${app}/api/session`)
  expect(await response.json()).toEqual({ session: null })
}

/** The last fenced block of the documentation site's SvelteKit guide that starts with `// <path>`. */
function guideBlock(path: string): string | undefined {
  const readme = readFileSync(fileURLToPath(new URL("../../../apps/docs/site/guides/sveltekit.md", import.meta.url)), "utf8")
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "").findLast((code) => code.startsWith(`// ${path}\n`))
}

/** Runs the IdP's `endSessions(sub)` (an administrator signing the account out there). */
async function endIdpSessions(sub: string): Promise<{ clientId: string; sub: string; error?: string }[]> {
  const response = await fetch(`${idpControl}/end-sessions/${sub}`, { method: "POST" })
  expect(response.status).toBe(200)
  return (await response.json()) as { clientId: string; sub: string; error?: string }[]
}

it("builds the guide's hook, load and form actions exactly as the SvelteKit guide shows them", () => {
  for (const path of ["src/hooks.server.ts", "src/routes/+layout.server.ts", "src/routes/signin/+page.server.ts", "src/routes/signout/+page.server.ts"]) {
    const file = readFileSync(fileURLToPath(new URL(`./app/${path}`, import.meta.url)), "utf8")
    expect(`// ${path}\n${file}`, path).toBe(guideBlock(path))
  }
})

it("type-checks the app's TypeScript (locals.auth(), the form actions) under SvelteKit's generated tsconfig", () => {
  // `vite build` only strips types; the set-up's build has generated .svelte-kit/tsconfig.json.
  // The app's own TypeScript, against the declaration files the packed packages ship.
  const tsc = join(appDir, "node_modules", "typescript", "bin", "tsc")
  expect(() => execFileSync(process.execPath, [tsc, "-p", appDir, "--noEmit"], { stdio: "pipe" })).not.toThrow()
})

it("shows a signed-out visitor as signed out in the layout's server load", async () => {
  await page.goto(`${app}/`)
  await expect.poll(status).toBe("Signed out")
})

it("signs in through the IdP from the SignIn component's form action, and the server load reads the session", async () => {
  await page.getByRole("button", { name: "Sign in with the IdP" }).click()
  await loginAtIdp(page)
  // The component's `authorizationParams` reached the provider.
  expect(authorizeUrls.at(-1)?.searchParams.get("login_hint")).toBe("alice@example.com")
  await arrive(page, `${app}/`)
  await expect.poll(status).toBe("Signed in as alice@example.com")
  // An endpoint's `locals.auth()`.
  const response = await context.request.get(`${app}/api/session`)
  const { session } = (await response.json()) as { session: { user?: { email?: string } } | null }
  expect(session?.user?.email).toBe("alice@example.com")
})

it("forwards a renewed session cookie from a server load to the page's response", async () => {
  // The app's `updateAge` is 2 s: a read after that slides the expiry and re-seals the cookie.
  await ageSession(context, 3)
  const response = await context.request.get(`${app}/`)
  expect(response.status()).toBe(200)
  const renewed = response.headersArray().filter(({ name, value }) => name.toLowerCase() === "set-cookie" && value.startsWith(`${SESSION_COOKIE}=`))
  expect(renewed).toHaveLength(1)
  expect(renewed[0]?.value).toMatch(/HttpOnly/i)
  expect(renewed[0]?.value).toMatch(/SameSite=Lax/i)
})

it("signs out from the SignOut component's form action", async () => {
  await signOutHere()
})

it("refuses a cross-origin form POST to a form action or the callback when its origin is not trusted, as SvelteKit's check does", async () => {
  // On the README's app (SvelteKit's check off, the hook doing it) and with SvelteKit's check on.
  for (const base of [app, defaultCsrfApp]) {
    for (const path of ["/signout", "/signin", "/auth/callback/idp-post"]) {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: "code=x&state=y",
        redirect: "manual",
      })
      expect(response.status, `${base}${path}`).toBe(403)
      expect(await response.text()).toBe("Cross-site POST form submissions are forbidden")
    }
  }
})

it("refuses a form POST without an Origin (a server-to-server call) anywhere but the back-channel logout route", async () => {
  for (const url of [`${app}/signout`, `${app}/auth/callback/idp-post`, `${defaultCsrfApp}/auth/callback/idp-post`, `${defaultCsrfApp}/auth/backchannel-logout/idp`]) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "logout_token=x",
      redirect: "manual",
    })
    expect(response.status, url).toBe(403)
  }
  // Through to core, which reads the token and refuses it.
  const response = await fetch(`${app}/auth/backchannel-logout/idp`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "logout_token=x",
  })
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ error: "InvalidLogoutToken" })
})

it("lets a form_post callback from the trusted IdP origin reach core", async () => {
  const response = await fetch(`${app}/auth/callback/idp-post`, {
    method: "POST",
    headers: { origin: new URL(issuer).origin, "content-type": "application/x-www-form-urlencoded" },
    body: "code=x&state=y",
    redirect: "manual",
  })
  // Core turns a form_post into a GET of the same callback, which carries the Lax cookies.
  expect(response.status).toBe(303)
  expect(new URL(response.headers.get("location") ?? "", app).pathname).toBe("/auth/callback/idp-post")
})

it("signs in with a response_mode=form_post provider (as Apple's) in the browser, landing on redirectTo", async () => {
  // A browser of its own, signed in at the IdP as another account: Alice's email already belongs
  // to the other provider's user, and core does not link them.
  const own = await browser.newContext()
  try {
    const tab = await own.newPage()
    await tab.goto(`${app}/`)
    await tab.getByRole("button", { name: "Sign in with form_post" }).click()
    await loginAtIdp(tab, { email: "bob@example.net", password: "bob-password" })
    await arrive(tab, `${app}/protected`)
    await expect.poll(() => tab.locator("#protected").textContent()).toBe("Protected content for bob@example.net")
  } finally {
    await own.close()
  }
})

it("signs in with an email link, captured by the app's sendVerificationRequest", async () => {
  await page.goto(`${app}/`)
  await page.getByLabel("Email").fill("dave@example.com")
  await page.getByRole("button", { name: "Email me a link" }).click()
  await arrive(page, (at) => at.pathname === "/auth/verify-request")
  const lines = readFileSync(linkFile, "utf8").trim().split("\n")
  const { identifier, url } = JSON.parse(lines.at(-1) ?? "{}") as { identifier?: string; url?: string }
  expect(identifier).toBe("dave@example.com")
  expect(new URL(url ?? "").origin).toBe(app)
  await page.goto(url ?? "")
  // Core asks before spending the link, so a mail scanner's GET does not sign anyone in.
  await page.getByRole("button", { name: "Sign in" }).click()
  await arrive(page, `${app}/`)
  await expect.poll(status).toBe("Signed in as dave@example.com")
  await signOutHere()
})

it("signs in from core's own sign-in page, whose form posts SvelteKit's CSRF check accepts as same-origin", async () => {
  // A browser of its own, not yet signed in at the IdP.
  const own = await browser.newContext()
  try {
    const tab = await own.newPage()
    await tab.goto(`${app}/protected`)
    await arrive(tab, (at) => at.pathname === "/auth/signin")
    await tab.getByRole("button", { name: "Sign in with Demo IdP", exact: true }).click()
    await loginAtIdp(tab)
    await arrive(tab, `${app}/protected`)
    await expect.poll(() => tab.locator("#protected").textContent()).toBe("Protected content for alice@example.com")
  } finally {
    await own.close()
  }
})

it("answers a form action posted with an unreadable body 400, not 500", async () => {
  for (const action of ["signin", "signout"]) {
    const response = await fetch(`${app}/${action}`, {
      method: "POST",
      headers: { origin: app, "content-type": "multipart/form-data; boundary=nothing-like-the-body", accept: "application/json" },
      body: "--wrong\r\nnot a part",
    })
    expect(response.status, action).toBe(400)
  }
})

it("signs in with credentials from the SignIn component's credentials slot", async () => {
  await page.goto(`${app}/`)
  await page.getByLabel("Username", { exact: true }).fill("carol")
  await page.getByLabel("Password", { exact: true }).fill("carol-password")
  await page.getByRole("button", { name: "Sign in with password" }).click()
  await expect.poll(status).toBe("Signed in as carol@example.com")
  await signOutHere()
})

it("reports wrong credentials to the client's signIn with redirect: false, and signs in with the right ones", async () => {
  await page.goto(`${app}/`)
  await page.getByLabel("Client username").fill("carol")
  await page.getByLabel("Client password").fill("wrong")
  await page.getByRole("button", { name: "Sign in from the client" }).click()
  await expect.poll(() => page.locator("#client-error").textContent()).toBe("CredentialsSignin")
  await page.getByLabel("Client password").fill("carol-password")
  await page.getByRole("button", { name: "Sign in from the client" }).click()
  await expect.poll(status).toBe("Signed in as carol@example.com")
  await signOutHere()
})

it("ends the session when the IdP ends it: its back-channel logout POST, with no Origin, reaches core", async () => {
  // A browser of its own, signing in at the IdP afresh.
  const own = await browser.newContext()
  try {
    const tab = await own.newPage()
    await tab.goto(`${app}/`)
    await tab.getByRole("button", { name: "Sign in with the IdP" }).click()
    await loginAtIdp(tab)
    await arrive(tab, `${app}/`)
    await expect.poll(() => tab.locator("#status").textContent()).toBe("Signed in as alice@example.com")

    const started = performance.now()
    const sent = (await endIdpSessions("alice")).filter((record) => record.clientId === CLIENT.id)
    console.info(`the IdP's end of Alice's sessions, logout tokens delivered: ${(performance.now() - started).toFixed(0)} ms`)
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.map((record) => record.error)).toEqual(sent.map(() => undefined))

    // The same cookie, read by the layout's server load and by an endpoint: the session is gone.
    await tab.goto(`${app}/`)
    await expect.poll(() => tab.locator("#status").textContent()).toBe("Signed out")
    expect(await (await own.request.get(`${app}/api/session`)).json()).toEqual({ session: null })
  } finally {
    await own.close()
  }
})

it("keeps the session where SvelteKit's own check is on: it refuses the back-channel logout POST with 403, and the IdP records the failed delivery", async () => {
  const own = await browser.newContext()
  try {
    const tab = await own.newPage()
    await tab.goto(`${defaultCsrfApp}/`)
    await tab.getByRole("button", { name: "Sign in with the IdP" }).click()
    await loginAtIdp(tab, { email: "bob@example.net", password: "bob-password" })
    await arrive(tab, `${defaultCsrfApp}/`)
    await expect.poll(() => tab.locator("#status").textContent()).toBe("Signed in as bob@example.net")

    const sent = (await endIdpSessions("bob")).filter((record) => record.clientId === DEFAULT_CSRF_CLIENT.id)
    expect(sent.length).toBeGreaterThan(0)
    for (const record of sent) expect(record.error).toMatch(/403/)

    await tab.goto(`${defaultCsrfApp}/`)
    await expect.poll(() => tab.locator("#status").textContent()).toBe("Signed in as bob@example.net")
  } finally {
    await own.close()
  }
})
