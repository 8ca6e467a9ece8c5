/**
 * The one end-to-end sign-in every runtime passes, driven from this Node.js process with the
 * cookie-jar browser: OpenID Connect through the dev IdP (here, on 127.0.0.1), an email link and
 * credentials, to a JWT session (`/api/auth`) and a database session (`/db/auth`, the memory
 * adapter), a `getAccessToken` refresh at the provider, and a password hashed on the runtime and
 * one hashed on Node.js verified there (`Password()`).
 *
 * The browser talks to the app as `http://localhost:3000` (its `AUTH_URL`, where the IdP sends it
 * back); each request is forwarded to the port the runtime listens on.
 *
 * @module
 */
import { hashPassword, verifyPassword } from "@portcullis/core/password"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import type { AppProcess } from "@portcullis/test-kit/app-process"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { totpCodeAt, totpStepAt } from "@portcullis/test-kit/totp"
import { scaled } from "@portcullis/test-time"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isThisNode, PACKAGES, startApp, type RuntimeName } from "./runtimes.js"

const APP = "http://localhost:3000"
const CLIENT = { id: "runtime-test", secret: "runtime-test-client-secret" }
const ALICE = { login: "alice@example.com", password: "alice-password" }
/** The app's password for `carol` (app/app.mjs). */
const PASSWORD = "a runtime test password"
/** Dave's password in the app's Password() accounts, hashed here on Node.js (`PASSWORD_HASH`). */
const DAVE = { email: "dave@example.com", password: "dave's password, made on Node.js" }

/** Forwards the browser's requests for {@link APP} to the app's real address, redirects untouched. */
function forwardTo(origin: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url)
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer()
    return fetch(new URL(`${url.pathname}${url.search}`, origin), { method: request.method, headers: request.headers, body, redirect: "manual" })
  }
}

interface Run {
  idp: DevIdp
  app: AppProcess
}

/** A browser of its own for one test: its cookies are the only state it shares with none. */
function browserFor(run: Run): TestBrowser {
  return new TestBrowser({ routes: { [APP]: forwardTo(run.app.origin) } })
}

async function csrfToken(browser: TestBrowser, basePath: string): Promise<string> {
  const response = await browser.request(`${APP}${basePath}/csrf`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** Posts a form of the app's sign-in page (as it would be posted from there) and follows the redirects. */
async function post(browser: TestBrowser, basePath: string, path: string, fields: Record<string, string>): Promise<Page> {
  return browser.navigate(`${APP}${basePath}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await csrfToken(browser, basePath), callbackUrl: `${APP}/dashboard`, ...fields }),
    initiator: `${APP}${basePath}/signin`,
  })
}

/** The whole OpenID Connect sign-in: the app's redirect, the IdP's login form, the callback. */
async function signInWithIdp(browser: TestBrowser, basePath: string): Promise<Page> {
  const login = await post(browser, basePath, "/signin/idp", {})
  expect(new URL(login.url).pathname, login.body.slice(0, 500)).toContain("/interaction/")
  return browser.submitForm(login, { values: ALICE })
}

/** Posts `fields` to a route of `basePath` as a script asking for JSON would, CSRF token included. */
async function postForJson(browser: TestBrowser, basePath: string, path: string, fields: Record<string, string>): Promise<Response> {
  return browser.request(`${APP}${basePath}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ csrfToken: await csrfToken(browser, basePath), ...fields }),
    initiator: `${APP}/settings`,
  })
}

async function json<T>(browser: TestBrowser, path: string): Promise<T> {
  const response = await browser.request(`${APP}${path}`)
  expect(response.status, path).toBe(200)
  return (await response.json()) as T
}

interface SessionBody {
  user?: { email?: string | null; name?: string | null }
  expires?: string
}

/** Opens the link the app mailed last to `address`, and presses the confirmation page's button. */
async function openMailedLink(browser: TestBrowser, address: string): Promise<Page> {
  const { url } = await json<{ url: string | null }>(browser, `/test/mail?to=${encodeURIComponent(address)}`)
  if (url === null) throw new Error(`no link was mailed to ${address}`)
  return browser.submitForm(await browser.navigate(url, { initiator: "https://mail.example/" }))
}

/**
 * The shared sign-in's tests for `runtime`, each titled with the runtime's name, against an app
 * started on it and a dev IdP started here.
 */
export function runtimeSignIn(runtime: RuntimeName): void {
  describe(runtime, () => {
    let run: Run | undefined
    const current = (): Run => {
      if (run === undefined) throw new Error(`the ${runtime} app did not start`)
      return run
    }

    beforeAll(async () => {
      // Access tokens live 30 s, within core's 60 s refresh margin: every getAccessToken refreshes.
      const idp = await startDevIdp({
        consent: "auto",
        accessTokenTtl: 30,
        clients: [
          {
            client_id: CLIENT.id,
            client_secret: CLIENT.secret,
            redirect_uris: [`${APP}/api/auth/callback/idp`, `${APP}/db/auth/callback/idp`, `${APP}/hono/auth/callback/idp`],
            grant_types: ["authorization_code", "refresh_token"],
          },
        ],
      })
      try {
        const app = await startApp(runtime, {
          AUTH_SECRET: "a-runtime-matrix-secret-of-at-least-32-chars",
          AUTH_URL: APP,
          IDP_ISSUER: idp.issuer,
          IDP_CLIENT_ID: CLIENT.id,
          IDP_CLIENT_SECRET: CLIENT.secret,
          PASSWORD_HASH: await hashPassword(DAVE.password),
        })
        run = { idp, app }
      } catch (error) {
        await idp.close()
        throw error
      }
    })

    afterAll(async () => {
      await run?.app.stop()
      await run?.idp.close()
    })

    it(`${runtime}: the app runs on ${runtime}, at the pinned version`, async () => {
      const { name, version } = PACKAGES[runtime]
      const expected = isThisNode(runtime) ? process.versions.node : name === "workerd" ? null : version
      expect(await json(browserFor(current()), "/test/runtime")).toEqual({ name: name === "workerd" ? "workerd" : runtime.replace(/-\d+$/u, ""), version: expected })
    })

    it(`${runtime}: two OpenID Connect sign-ins at once, the app's first requests, to JWT sessions`, async () => {
      // At once: the provider's metadata, fetched on first use, is awaited by both requests
      // (on workerd, I/O one request started and another awaits).
      const browsers = [browserFor(current()), browserFor(current())]
      const done = await Promise.all(browsers.map((browser) => signInWithIdp(browser, "/api/auth")))
      expect(done.map((page) => page.url)).toEqual([`${APP}/dashboard`, `${APP}/dashboard`])
      for (const browser of browsers) {
        expect(await json<SessionBody>(browser, "/api/auth/session")).toMatchObject({ user: { email: ALICE.login } })
        expect(await json<SessionBody | null>(browser, "/test/session")).toMatchObject({ user: { email: ALICE.login } })
      }
    })

    it(`${runtime}: OpenID Connect sign-in to a database session, then getAccessToken refreshes at the provider (RFC 6749 §6)`, async () => {
      const { idp } = current()
      const browser = browserFor(current())
      expect((await signInWithIdp(browser, "/db/auth")).url).toBe(`${APP}/dashboard`)
      expect(await json<SessionBody>(browser, "/db/auth/session")).toMatchObject({ user: { email: ALICE.login } })
      const before = idp.refreshGrants
      const first = await json<{ accessToken: string } | null>(browser, "/test/access-token?session=database")
      const second = await json<{ accessToken: string } | null>(browser, "/test/access-token?session=database")
      expect(idp.refreshGrants - before).toBe(2)
      expect(first?.accessToken).toEqual(expect.any(String))
      expect(second?.accessToken).not.toBe(first?.accessToken)
      // Two requests at once share one refresh; on workerd the second awaits I/O the first
      // started. The token endpoint stalls so that the second surely arrives while it runs.
      idp.delay("token", scaled(300))
      const together = await Promise.all([1, 2].map(() => json<{ accessToken: string } | null>(browser, "/test/access-token?session=database")))
      idp.delay("token", 0)
      expect(idp.refreshGrants - before).toBe(3)
      expect(together[1]?.accessToken).toBe(together[0]?.accessToken)
    })

    it(`${runtime}: Hono (@portcullis/hono): OpenID Connect sign-in through authHandler(), then verifyAuth() lets the session through`, async () => {
      const browser = browserFor(current())
      expect((await browser.request(`${APP}/hono/me`)).status).toBe(401)
      expect((await signInWithIdp(browser, "/hono/auth")).url).toBe(`${APP}/dashboard`)
      expect(await json<SessionBody>(browser, "/hono/me")).toMatchObject({ user: { email: ALICE.login } })
    })

    it(`${runtime}: email link sign-in to a database session`, async () => {
      const browser = browserFor(current())
      const sent = await post(browser, "/db/auth", "/signin/email", { email: "dora@example.com" })
      expect(new URL(sent.url).pathname).toBe("/db/auth/verify-request")
      const done = await openMailedLink(browser, "dora@example.com")
      expect(done.url).toBe(`${APP}/dashboard`)
      expect(await json<SessionBody>(browser, "/db/auth/session")).toMatchObject({ user: { email: "dora@example.com" } })
    })

    it(`${runtime}: an email link is refused once expired, the clock having moved between requests`, async () => {
      const browser = browserFor(current())
      await post(browser, "/api/auth", "/signin/email", { email: "erin@example.com" })
      // The link, made before the answer came, lives a second (app/app.mjs): time itself must
      // pass here, not a fake clock.
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      const refused = await openMailedLink(browser, "erin@example.com")
      expect(new URL(refused.url).searchParams.get("error")).toBe("Verification")
      expect(await json<SessionBody | null>(browser, "/test/session")).toBeNull()
    })

    it(`${runtime}: credentials sign-in to a JWT session, then sign-out`, async () => {
      const browser = browserFor(current())
      const wrong = await post(browser, "/api/auth", "/callback/credentials", { username: "carol", password: "not it" })
      expect(new URL(wrong.url).searchParams.get("error")).toBe("CredentialsSignin")
      const done = await post(browser, "/api/auth", "/callback/credentials", { username: "carol", password: PASSWORD })
      expect(done.url).toBe(`${APP}/dashboard`)
      expect(await json<SessionBody>(browser, "/api/auth/session")).toMatchObject({ user: { email: "carol@example.com" } })
      await post(browser, "/api/auth", "/signout", {})
      expect(await json<SessionBody | null>(browser, "/api/auth/session")).toBeNull()
    })

    it(`${runtime}: an authenticator app (RFC 6238) enrolled through the routes holds the next sign-in at the gate until a code for a later time step, and a used step is refused (RFC 6238 §5.2)`, async () => {
      const base = "/totp/auth"
      const credentials = { username: "carol", password: PASSWORD }
      const browser = browserFor(current())
      expect((await post(browser, base, "/callback/credentials", credentials)).url).toBe(`${APP}/dashboard`)
      const setup = await postForJson(browser, base, "/mfa/totp/setup", {})
      expect(setup.status).toBe(200)
      const { secret, uri } = (await setup.json()) as { secret: string; uri: string }
      expect(uri).toMatch(/^otpauth:\/\/totp\//u)
      // The step is the test's clock's; the runtime accepts one step either side of its own.
      const step = totpStepAt()
      const confirmed = await postForJson(browser, base, "/mfa/totp/confirm", { code: totpCodeAt(secret, step) })
      expect(confirmed.status).toBe(200)
      expect(((await confirmed.json()) as { backupCodes: string[] }).backupCodes).toHaveLength(10)
      await post(browser, base, "/signout", {})

      const held = await post(browser, base, "/callback/credentials", credentials)
      expect(new URL(held.url).pathname).toBe(`${base}/mfa`)
      expect(await json<SessionBody | null>(browser, `${base}/session`)).toBeNull()
      // The next step: later than the one the confirmation spent, within the runtime's window.
      const next = totpCodeAt(secret, step + 1)
      expect((await post(browser, base, "/mfa/verify", { factor: "totp", code: next })).url).toBe(`${APP}/dashboard`)
      expect(await json<SessionBody>(browser, `${base}/session`)).toMatchObject({ user: { email: "carol@example.com" } })

      const again = browserFor(current())
      expect(new URL((await post(again, base, "/callback/credentials", credentials)).url).pathname).toBe(`${base}/mfa`)
      const replayed = await postForJson(again, base, "/mfa/verify", { factor: "totp", code: next })
      expect({ status: replayed.status, body: (await replayed.json()) as unknown }).toEqual({ status: 400, body: { error: "replayed" } })
      expect(await json<SessionBody | null>(again, `${base}/session`)).toBeNull()
    })

    it(`${runtime}: a password hashed here (scrypt, PHC string with a per-hash salt) verifies, and a wrong one does not (NIST SP 800-63B rev 4 §3.1.1.2)`, async () => {
      const response = await browserFor(current()).request(`${APP}/test/password`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ password: "a password hashed on this runtime" }),
      })
      expect(response.status).toBe(200)
      const { hash, right, wrong } = (await response.json()) as { hash: string; right: unknown; wrong: unknown }
      expect(hash).toMatch(/^\$scrypt\$ln=14,r=8,p=5\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/u)
      expect({ right, wrong }).toEqual({ right: { ok: true, rehash: false }, wrong: { ok: false, rehash: false } })
      // The runtime's hash verifies here on Node.js too: one format on every runtime.
      expect(await verifyPassword(hash, "a password hashed on this runtime")).toEqual({ ok: true, rehash: false })
    })

    it(`${runtime}: Password() signs in with a hash made on Node.js, and refuses a wrong password`, async () => {
      const browser = browserFor(current())
      const wrong = await post(browser, "/password/auth", "/callback/password", { email: DAVE.email, password: "not dave's password" })
      expect(new URL(wrong.url).searchParams.get("error")).toBe("CredentialsSignin")
      const done = await post(browser, "/password/auth", "/callback/password", DAVE)
      expect(done.url).toBe(`${APP}/dashboard`)
      expect(await json<SessionBody>(browser, "/password/auth/session")).toMatchObject({ user: { email: DAVE.email } })
    })

    it(`${runtime}: no response leaves a timer behind (a runtime may run nothing after the response)`, async () => {
      const { left } = await json<{ left: string[] }>(browserFor(current()), "/test/timers")
      expect(left).toEqual([])
    })

    it(`${runtime}: the clock ${runtime.startsWith("workerd") ? "stands still during CPU work and moves on I/O" : "moves during CPU work"}`, async () => {
      const clock = await json<{ cpuMovedClock: boolean; ioMovedClock: boolean }>(browserFor(current()), "/test/clock")
      expect(clock).toMatchObject({ cpuMovedClock: !runtime.startsWith("workerd"), ioMovedClock: true })
    })
  })
}
