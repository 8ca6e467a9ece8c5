/**
 * The test app (test/app: an app written as next-auth v5's docs show, importing @portcullis/nextjs),
 * built twice, as before and with Cache Components as create-next-app@16 enables them, each served
 * by `next start`, in real Chromium against a real OpenID Provider. In each build the tests run in
 * order: they follow one visitor from signed out to signed in and out again.
 */
import type { APIResponse, Browser, BrowserContext, Page } from "playwright-core"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest"
import { decode, encode } from "@portcullis/core/jwt"
import { launchChromium } from "@portcullis/test-kit/chromium"
import type { Variant } from "./next-app.js"
import { scaled } from "@portcullis/test-time"

const apps = inject("apps")
const issuer = inject("idpIssuer")
const secret = inject("authSecret")

/** The pages that read the session, and so must never be served from a build-time render. */
const SESSION_PAGES = { classic: ["/", "/protected"], cacheComponents: ["/", "/protected", "/use-cache", "/use-cache-private"] } as const

/** What Next.js answers `auth()` in a plain `"use cache"` function with, as the Next.js guide (apps/docs/site/guides/nextjs.md) quotes it. */
const USE_CACHE_REFUSAL = '`headers()` can\'t be read inside `"use cache"`'

const SESSION_COOKIE = "authjs.session-token"
/** More than the app's `updateAge` (2 s): a session this old is due for renewal. */
const PAST_UPDATE_AGE = 3

function sessionCookies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter(({ name, value }) => name.toLowerCase() === "set-cookie" && value.startsWith(`${SESSION_COOKIE}=`))
    .map(({ value }) => value)
}

/** The fenced blocks of a markdown file that start with `// <path>`, without that line's fence. */
function snippets(markdown: string, path: string): string[] {
  return [...markdown.matchAll(/^```tsx?\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "").filter((code) => code.startsWith(`// ${path}\n`))
}

it("builds the getting-started page's app/page.tsx exactly as the documentation site shows it", () => {
  const page = readFileSync(fileURLToPath(new URL("./app/app/page.tsx", import.meta.url)), "utf8")
  const site = readFileSync(fileURLToPath(new URL("../../../apps/docs/site/getting-started/nextjs.md", import.meta.url)), "utf8")
  expect(snippets(site, "app/page.tsx")).toEqual([page])
  // Any other page that shows it (a README, a guide) shows the same.
  for (const other of ["../README.md", "../../../README.md", "../../../apps/docs/site/guides/nextjs.md"]) {
    for (const shown of snippets(readFileSync(fileURLToPath(new URL(other, import.meta.url)), "utf8"), "app/page.tsx")) expect(shown).toBe(page)
  }
})

describe.each(Object.keys(apps) as Variant[])("the %s build", (variant) => {
  const { url: app, distDir, serverLog, buildSeconds } = apps[variant]
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const authorizeUrls: URL[] = []

  /** Keeps every authorization request a context sends to the IdP. */
  function recordAuthorizeUrls(on: BrowserContext): void {
    on.on("request", (request) => {
      const url = new URL(request.url())
      if (url.origin === issuer && url.pathname === "/auth") authorizeUrls.push(url)
    })
  }

  beforeAll(async () => {
    console.info(`next build (${variant}) took ${buildSeconds.toFixed(1)} s`)
    browser = await launchChromium()
    context = await browser.newContext()
    page = await context.newPage()
    recordAuthorizeUrls(context)
  })

  afterAll(async () => {
    await browser.close()
  })

  /**
   * Makes the context's session `seconds` older instead of waiting them out: its claims sealed
   * again, with the app's secret and cookie name, while this process's clock reads that far back
   * (the app decides a renewal from `iat`, which the seal sets from the clock).
   */
  async function ageSession(on: BrowserContext, seconds: number): Promise<void> {
    const cookie = (await on.cookies(app)).find(({ name }) => name === SESSION_COOKIE) ?? expect.unreachable("the context holds no session cookie")
    const claims = (await decode({ token: cookie.value, secret, salt: SESSION_COOKIE })) ?? expect.unreachable("the session cookie does not open")
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - seconds * 1000 })
    try {
      await on.addCookies([{ ...cookie, value: await encode({ token: claims, secret, salt: SESSION_COOKIE }) }])
    } finally {
      vi.useRealTimers()
    }
  }

  /** Signs a new context in through the IdP as Alice, from the README's page. */
  async function signInAsAlice(on: Page): Promise<void> {
    await on.goto(`${app}/`)
    await on.getByRole("button", { name: "Sign in" }).click()
    await on.getByRole("button", { name: "Sign in with Demo IdP" }).click()
    await on.waitForURL((at) => at.origin === issuer && at.pathname.startsWith("/interaction/"))
    await on.getByLabel("Email").fill("alice@example.com")
    await on.getByLabel("Password").fill("alice-password")
    await on.getByRole("button", { name: "Sign in", exact: true }).click()
    await on.waitForURL(`${app}/`, { timeout: scaled(10_000) }).catch(() => {
      throw new Error(`the sign-in ended at ${on.url()}`)
    })
  }

  it("prerenders no page that reads the session, beyond a shell without it", () => {
    const manifest = JSON.parse(readFileSync(join(distDir, "prerender-manifest.json"), "utf8")) as { routes: Record<string, { compute?: string } | undefined> }
    for (const path of SESSION_PAGES[variant]) {
      const prerendered = manifest.routes[path]
      // Without Cache Components such a page is not prerendered at all; with them only its shell
      // is, and every request resumes it.
      if (variant === "classic") expect(prerendered, path).toBeUndefined()
      else {
        expect(prerendered?.compute, path).toBe("resuming")
        const shell = readFileSync(join(distDir, "server/app", `${path === "/" ? "index" : path.slice(1)}.html`), "utf8")
        expect(shell, path).toContain("Loading…")
        expect(shell, path).not.toMatch(/Signed (in|out)|content for|for nobody/)
      }
    }
  })

  it("shows a signed-out visitor as signed out in a server component", async () => {
    await page.goto(`${app}/`)
    await expect.poll(() => page.getByText("Signed out").count()).toBe(1)
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("unauthenticated")
  })

  if (variant === "classic") {
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
  }

  it("sends a signed-out visitor from a middleware-protected page to sign in, with a way back", async () => {
    await page.goto(`${app}/protected`)
    const url = new URL(page.url())
    expect(url.pathname).toBe("/api/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe("/protected")
  })

  it("signs in with a server action through the IdP, and server and client components show the user", async () => {
    await signInAsAlice(page)
    await expect.poll(() => page.getByText("Signed in as alice@example.com").count()).toBe(1)
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("Client sees alice@example.com")
  })

  it("shows another visitor their own state, never the signed-in one's", async () => {
    const other = await browser.newContext()
    try {
      for (const path of SESSION_PAGES[variant].filter((at) => at !== "/protected")) {
        const response = await other.request.get(`${app}${path}`)
        const html = await response.text()
        expect(html, path).not.toContain("alice@example.com")
      }
      const visitor = await other.newPage()
      await visitor.goto(`${app}/`)
      await expect.poll(() => visitor.getByText("Signed out").count()).toBe(1)
    } finally {
      await other.close()
    }
  })

  it("lets a signed-in visitor through the middleware-protected page", async () => {
    await page.goto(`${app}/protected`)
    expect(new URL(page.url()).pathname).toBe("/protected")
    await expect.poll(() => page.getByText("Protected content for alice@example.com").count()).toBe(1)
  })

  if (variant === "classic") {
    it("reads the session with auth() in an edge route handler", async () => {
      const response = await context.request.get(`${app}/api/edge`)
      expect(response.status()).toBe(200)
      const body = (await response.json()) as { runtime: string; session: { user?: { email?: string } } | null }
      expect(body.runtime).toBe("edge")
      expect(body.session?.user?.email).toBe("alice@example.com")
    })
  }

  if (variant === "cacheComponents") {
    it("reads the session with auth() inside 'use cache: private', for that visitor only", async () => {
      await page.goto(`${app}/use-cache-private`)
      await expect.poll(() => page.getByText("Private for alice@example.com").count()).toBe(1)
      const other = await browser.newContext()
      const visitor = await other.newPage()
      await visitor.goto(`${app}/use-cache-private`)
      await expect.poll(() => visitor.getByText("Private for nobody").count()).toBe(1)
      await other.close()
    })

    it("refuses auth() inside a plain 'use cache' function rather than cache one visitor's session for all", async () => {
      const response = await context.request.get(`${app}/use-cache`)
      const html = await response.text()
      expect(html).not.toContain("alice@example.com")
      expect(html).not.toContain("Cached for")
      const other = await browser.newContext()
      const again = await other.request.get(`${app}/use-cache`)
      expect(await again.text()).not.toContain("alice@example.com")
      await other.close()
      await expect.poll(() => readFileSync(serverLog, "utf8")).toContain(USE_CACHE_REFUSAL)
    })
  }

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
    await ageSession(context, PAST_UPDATE_AGE)
    const renewed = await context.request.get(`${app}/api/me`)
    expect(sessionCookies(renewed)).toHaveLength(1)
    const again = await context.request.get(`${app}/api/me`)
    expect(sessionCookies(again)).toEqual([])
    expect(((await again.json()) as { session: { user?: { email?: string } } | null }).session?.user?.email).toBe("alice@example.com")
  })

  it("forwards a due session renewal from the middleware", async () => {
    await ageSession(context, PAST_UPDATE_AGE)
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
    await ageSession(context, PAST_UPDATE_AGE)
    const response = await page.goto(`${app}/`)
    expect(response?.status()).toBe(200)
    await expect.poll(() => page.getByText("Signed in as alice@example.com").count()).toBe(1)
  })

  it("signs out with a server action", async () => {
    await page.goto(`${app}/`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => page.getByText("Signed out").count()).toBe(1)
    const response = await context.request.get(`${app}/api/me`)
    expect(await response.json()).toEqual({ session: null })
  })

  async function passwordSignIn(password: string): Promise<{ url: URL; signedIn: boolean }> {
    const other = await browser.newContext()
    const login = await other.newPage()
    await login.goto(`${app}/login`)
    await login.getByLabel("Username").fill("carol")
    await login.getByLabel("Password").fill(password)
    await login.getByRole("button", { name: "Sign in with password" }).click()
    await login.waitForURL((at) => at.pathname !== "/login")
    const url = new URL(login.url())
    const signedIn = await login
      .getByText("Signed in as carol@example.com")
      .waitFor({ timeout: scaled(5_000) })
      .then(() => true, () => false)
    await other.close()
    return { url, signedIn }
  }

  it("signs in with credentials from a server action's FormData", async () => {
    const { url, signedIn } = await passwordSignIn("carol-password")
    expect(url.pathname).toBe("/")
    expect(signedIn).toBe(true)
  })

  it("refuses a wrong password from a server action with the sign-in page's error", async () => {
    const { url } = await passwordSignIn("wrong-password")
    expect(url.pathname).toBe("/api/auth/signin")
    expect(url.searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("logs no error on the server for any of the above but the refused password (and the misused cache)", () => {
    const errors = readFileSync(serverLog, "utf8")
      .split("\n")
      .filter((line) => /\[auth\]\[error\]|⨯|Error:/.test(line))
      // The refused "use cache" read above, once per request that made it.
      .filter((line) => !line.includes(USE_CACHE_REFUSAL))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^\[auth\]\[error\] \w+: The `authorize` of provider "password" refused the credentials\.$/)
  })
})
