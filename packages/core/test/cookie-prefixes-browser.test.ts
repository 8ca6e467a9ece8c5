/**
 * Security item 2 in a real browser: two https hosts of one site, `app.example.test` (the app)
 * and `evil.example.test` (a sibling that sets `Domain=example.test` cookies). Chromium, not our
 * cookie jar, decides what a sibling can plant; every cookie the app relies on must be out of reach.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

import { Auth as AuthjsAuth, type AuthConfig as AuthjsConfig } from "authjs-core"
import AuthjsCredentials from "authjs-core/providers/credentials"
import type { Browser, BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { Auth } from "../src/index.js"
import { encode } from "../src/session/jwt.js"
import type { AuthConfig } from "../src/types.js"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { PASSWORD, SECRET, passwordProvider } from "./helpers.js"
import { scaled } from "@portcullis/test-time"

const PLANTED = "planted-by-a-sibling"

/**
 * What a sibling plants: the attacker's own valid session (sealed by this app when they signed
 * in) under Auth.js's `__Secure-` name, which the browser accepts, and under ours, which it must
 * refuse; plus a CSRF cookie.
 */
async function plants(): Promise<string[]> {
  const attacker = { sub: "mallory", name: "Mallory" }
  const sealed = (salt: string) => encode({ token: attacker, secret: SECRET, salt, maxAge: 3600 })
  return [
    `__Secure-authjs.session-token=${await sealed("__Secure-authjs.session-token")}; Domain=example.test; Path=/; Secure`,
    `__Host-authjs.session-token=${await sealed("__Host-authjs.session-token")}; Domain=example.test; Path=/; Secure`,
    `__Host-authjs.csrf-token=${PLANTED}; Domain=example.test; Path=/; Secure`,
  ]
}

let dir: string | undefined
let server: Server | undefined
let browser: Browser | undefined
let context: BrowserContext
let appConfig: AuthConfig | undefined
/** While set, the app still runs on Auth.js's own published `@auth/core`, with this configuration. */
let authjsConfig: AuthjsConfig | undefined
let app: string
let evil: string

/** A self-signed certificate for *.example.test, made for this run. */
function certificate(folder: string): { key: Buffer; cert: Buffer } {
  const key = join(folder, "key.pem")
  const cert = join(folder, "cert.pem")
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-subj", "/CN=example.test", "-addext", "subjectAltName=DNS:*.example.test,DNS:example.test",
    "-keyout", key, "-out", cert,
  ], { stdio: "ignore" })
  return { key: readFileSync(key), cert: readFileSync(cert) }
}

function authConfig(origin: string): AuthConfig {
  return { secret: SECRET, url: origin, providers: [passwordProvider()], logger: { error: () => undefined, warn: () => undefined } }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "auth-cookie-prefixes-"))
  const https = createServer(certificate(dir), (incoming, outgoing) => {
    const host = incoming.headers.host ?? ""
    const chunks: Buffer[] = []
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
    incoming.on("end", () => {
      void (async () => {
        let response: Response
        if (host.startsWith("evil.")) {
          const headers = new Headers({ "content-type": "text/html" })
          for (const plant of await plants()) headers.append("set-cookie", plant)
          response = new Response("<p>a sibling page</p>", { headers })
        } else if (incoming.url === "/echo") {
          response = new Response(incoming.headers.cookie ?? "", { headers: { "content-type": "text/plain" } })
        } else {
          const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
          const headers = new Headers()
          for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
          const request = new Request(`https://${host}${incoming.url ?? "/"}`, { method: incoming.method, headers, body })
          response = authjsConfig === undefined ? await Auth(request, appConfig ?? authConfig(app)) : await AuthjsAuth(request, authjsConfig)
        }
        const headers: Record<string, string | string[]> = {}
        response.headers.forEach((value, name) => {
          if (name !== "set-cookie") headers[name] = value
        })
        headers["set-cookie"] = response.headers.getSetCookie()
        outgoing.writeHead(response.status, headers)
        outgoing.end(Buffer.from(await response.arrayBuffer()))
      })()
    })
  })
  server = https
  await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve))
  const { port } = https.address() as AddressInfo
  app = `https://app.example.test:${port}`
  evil = `https://evil.example.test:${port}`
  appConfig = authConfig(app)
  browser = await launchChromium(["--host-resolver-rules=MAP *.example.test 127.0.0.1"])
  context = await browser.newContext({ ignoreHTTPSErrors: true })
}, scaled(180_000))

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve()
    else server.close(() => { resolve() })
  })
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

describe("cookie prefixes in Chromium, with a hostile sibling subdomain", () => {
  it("a sibling plants Auth.js's __Secure- names but not our __Host- ones, so the app sees no planted session", async () => {
    const page = await context.newPage()
    await page.goto(`${evil}/plant`)
    await page.goto(`${app}/echo`)
    const sent = await page.locator("body").innerText()
    // The attack works against __Secure- names: the browser does send the planted session...
    expect(sent).toContain("__Secure-authjs.session-token=")
    // ...and refuses every __Host- cookie set with a Domain.
    expect(sent).not.toContain("__Host-")
    // So the app, reading __Host- names only, is not signed in as the attacker.
    const session = await page.goto(`${app}/api/auth/session`)
    expect(await session?.json()).toBeNull()
  })

  it("every cookie the app sets through a real sign-in is __Host-, host-only, Secure and Path=/", async () => {
    const page = await context.newPage()
    await page.goto(`${app}/api/auth/signin`)
    await page.fill('input[name="username"]', "ada")
    await page.fill('input[name="password"]', PASSWORD)
    await Promise.all([page.waitForURL(`${app}/`), page.click('form[action$="/callback/credentials"] button')])
    const session = await page.goto(`${app}/api/auth/session`)
    expect(await session?.json()).toMatchObject({ user: { name: "Ada Lovelace" } })

    const ours = (await context.cookies(app)).filter((cookie) => cookie.domain === "app.example.test")
    expect(ours.map((cookie) => cookie.name).sort()).toEqual(["__Host-authjs.csrf-token", "__Host-authjs.session-token"])
    for (const cookie of ours) {
      expect(cookie).toMatchObject({ secure: true, path: "/", domain: "app.example.test", httpOnly: true })
    }
  })
})

describe("legacySessionCookies in Chromium: moving an app from Auth.js", () => {
  const until = (days: number) => ({ legacySessionCookies: { until: new Date(Date.now() + days * 24 * 60 * 60 * 1000) } })

  it("a browser signed in by Auth.js stays signed in after the switch, moved to __Host-; a planted __Secure- cookie never outranks it", async () => {
    const browserContext = await (browser as Browser).newContext({ ignoreHTTPSErrors: true })
    const ada = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" }
    // Auth.js answers the app's home page too (this server hands it every path) and logs it.
    const authjsErrors: string[] = []
    authjsConfig = {
      logger: { error: (error) => authjsErrors.push(error.name) },
      secret: SECRET,
      trustHost: true,
      basePath: "/api/auth",
      providers: [AuthjsCredentials({ credentials: { username: {}, password: {} }, authorize: (input) => (input.username === "ada" && input.password === PASSWORD ? ada : null) })],
    }
    try {
      // Before the switch: Auth.js's own pages and handler sign the browser in.
      const page = await browserContext.newPage()
      await page.goto(`${app}/api/auth/signin`)
      await page.fill('input[name="username"]', "ada")
      await page.fill('input[name="password"]', PASSWORD)
      await Promise.all([page.waitForURL(`${app}/`), page.click('form[action$="/callback/credentials"] button')])
      const before = (await browserContext.cookies(app)).map((cookie) => cookie.name)
      expect(before).toContain("__Secure-authjs.session-token")
      expect(authjsErrors).toEqual(["UnknownAction"])

      // The switch.
      authjsConfig = undefined
      appConfig = { ...authConfig(app), ...until(30) }
      expect(await (await page.goto(`${app}/api/auth/session`))?.json()).toMatchObject({ user: { id: ada.id, name: ada.name } })
      // Chromium took both: our __Host- cookie, and the expiry of Auth.js's (which needs `Secure`).
      const after = await browserContext.cookies(app)
      const names = after.map((cookie) => cookie.name)
      expect(names).toContain("__Host-authjs.session-token")
      expect(names.filter((name) => name.startsWith("__Secure-authjs.session-token"))).toEqual([])

      // A sibling plants the attacker's session under Auth.js's name: ours still decides.
      await page.goto(`${evil}/plant`)
      expect(await (await page.goto(`${app}/echo`))?.text()).toContain("__Secure-authjs.session-token=")
      expect(await (await page.goto(`${app}/api/auth/session`))?.json()).toMatchObject({ user: { id: ada.id } })
    } finally {
      authjsConfig = undefined
      appConfig = authConfig(app)
      await browserContext.close()
    }
  })

  it("the window's trade-off (SECURITY.md): a browser with no session of ours takes a planted one until `until`, never after", async () => {
    const browserContext = await (browser as Browser).newContext({ ignoreHTTPSErrors: true })
    try {
      const page = await browserContext.newPage()
      await page.goto(`${evil}/plant`)
      appConfig = { ...authConfig(app), ...until(30) }
      expect(await (await page.goto(`${app}/api/auth/session`))?.json()).toMatchObject({ user: { id: "mallory" } })
      const planted = await browserContext.newPage()
      await browserContext.clearCookies()
      await planted.goto(`${evil}/plant`)
      appConfig = { ...authConfig(app), ...until(-1) }
      expect(await (await planted.goto(`${app}/api/auth/session`))?.json()).toBeNull()
    } finally {
      appConfig = authConfig(app)
      await browserContext.close()
    }
  })
})
