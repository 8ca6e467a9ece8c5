/**
 * The switch from Auth.js signs no one out: a browser signed in by Auth.js's own published
 * `@auth/core` (installed as `authjs-core`) with a database session in Auth.js's own adapter, on
 * real PostgreSQL (both id types) and Redis, is still signed in through our `Auth()` with
 * `legacySessionCookies`, moved to our cookie, and signing out deletes its row.
 */
import { Auth as AuthjsAuth, type AuthConfig as AuthjsConfig } from "authjs-core"
import { Auth, type AuthConfig } from "@portcullis/core"
import { beforeEach, describe, expect, it } from "vitest"
import { Jar, SECRET, setCookies } from "../../core/test/helpers.js"
import { STORE_KINDS, useAuthJsStore } from "./stores.js"

const APP = "https://app.example"
const LEGACY = "__Secure-authjs.session-token"
const OURS = "__Host-authjs.session-token"
const EMAIL = "ada@example.com"

async function send(handler: (request: Request) => Promise<Response>, jar: Jar, path: string, form?: Record<string, string>): Promise<Response> {
  const headers = new Headers()
  if (jar.cookies.size > 0) headers.set("cookie", jar.header())
  if (form !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
  const response = await handler(new Request(new URL(path, APP), { method: form === undefined ? "GET" : "POST", headers, body: form === undefined ? undefined : new URLSearchParams(form).toString() }))
  jar.store(response)
  return response
}

for (const kind of STORE_KINDS) {
  describe(`a browser signed in by Auth.js on ${kind}, after the switch`, () => {
    const store = useAuthJsStore(kind, "legacy")

    beforeEach(async () => {
      await store().reset()
    })

    /** Signs a browser in through Auth.js's own Auth() with an email link, as the app did before the switch. */
    async function signedInByAuthjs(): Promise<Jar> {
      let link = ""
      const authjs = (request: Request) =>
        AuthjsAuth(request, {
          secret: SECRET,
          trustHost: true,
          basePath: "/api/auth",
          adapter: store().adapter as unknown as AuthjsConfig["adapter"],
          session: { strategy: "database" },
          providers: [{ id: "email", type: "email", name: "Email", from: "auth@app.example", maxAge: 3600, options: {}, sendVerificationRequest: ({ url }) => void (link = url) }],
        })
      const jar = new Jar()
      const { csrfToken } = (await (await send(authjs, jar, "/api/auth/csrf")).json()) as { csrfToken: string }
      await send(authjs, jar, "/api/auth/signin/email", { csrfToken, email: EMAIL })
      expect((await send(authjs, jar, link)).status).toBe(302)
      expect(jar.cookies.get(LEGACY)).toBeTruthy()
      return jar
    }

    function ours(legacy: boolean): (request: Request) => Promise<Response> {
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        providers: [],
        adapter: store().adapter,
        session: { strategy: "database" },
        logger: { error: () => undefined, warn: () => undefined },
        ...(legacy ? { legacySessionCookies: { until: new Date(Date.now() + 24 * 60 * 60 * 1000) } } : {}),
      }
      return (request) => Auth(request, config)
    }

    it("is signed out without the option, and stays signed in, moved to our cookie, with it", async () => {
      const jar = await signedInByAuthjs()
      const token = jar.cookies.get(LEGACY) ?? ""
      expect(await (await send(ours(false), jar, "/api/auth/session")).json()).toBeNull()
      const response = await send(ours(true), jar, "/api/auth/session")
      expect(await response.json()).toMatchObject({ user: { email: EMAIL } })
      expect(setCookies(response).get(OURS)).toBe(token)
      expect(setCookies(response).get(LEGACY)).toBe("")
      expect([...jar.cookies.keys()]).not.toContain(LEGACY)
      expect(await (await send(ours(true), jar, "/api/auth/session")).json()).toMatchObject({ user: { email: EMAIL } })
    })

    it("signing out with only the legacy cookie deletes the session row", async () => {
      const jar = await signedInByAuthjs()
      const token = jar.cookies.get(LEGACY) ?? ""
      expect(await store().db.session(token)).toBeTruthy()
      const { csrfToken } = (await (await send(ours(true), jar, "/api/auth/csrf")).json()) as { csrfToken: string }
      const response = await send(ours(true), jar, "/api/auth/signout", { csrfToken })
      expect(setCookies(response).get(LEGACY)).toBe("")
      expect(await store().db.session(token)).toBeFalsy()
    })
  })
}
