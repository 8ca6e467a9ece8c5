/**
 * The conversions between Next.js and core, without a Next.js server: what reaches core, and
 * what the middleware answers.
 */
import { NextRequest } from "next/server.js"
import { describe, expect, it } from "vitest"
import NextAuth from "../src/index.js"
import { setCookies, type CookieStore } from "../src/cookies.js"
import { forCore, requestFromHeaders } from "../src/request.js"

describe("forCore", () => {
  it("drops the catch-all parameter and Next.js's route-parameter keys, keeping the browser's own", () => {
    const request = forCore(new Request("http://127.0.0.1/api/auth/signin/idp?nextauth=signin&nextauth=idp&nxtPnextauth=signin&prompt=login"))
    expect(new URL(request.url).search).toBe("?prompt=login")
  })

  it("passes a request with nothing to change through untouched", () => {
    const request = new Request("http://127.0.0.1/api/auth/session", { headers: { cookie: "authjs.session-token=abc.def" } })
    expect(forCore(request)).toBe(request)
  })

  it("keeps a POST body when it rewrites the URL", async () => {
    const request = forCore(new Request("http://127.0.0.1/api/auth/signout?nextauth=signout", { method: "POST", body: "csrfToken=x" }))
    expect(await request.text()).toBe("csrfToken=x")
  })

  it("gives core the cookie values Next.js's cookies().set() percent-encoded", () => {
    const request = forCore(new Request("http://127.0.0.1/", { headers: { cookie: "authjs.csrf-token=token%7Cmac; other=1" } }))
    expect(request.headers.get("cookie")).toBe("authjs.csrf-token=token|mac; other=1")
  })

  it("leaves a malformed percent-encoding as sent instead of throwing", () => {
    const request = forCore(new Request("http://127.0.0.1/", { headers: { cookie: "authjs.session-token=%E0%A4%A" } }))
    expect(request.headers.get("cookie")).toBe("authjs.session-token=%E0%A4%A")
  })
})

describe("requestFromHeaders", () => {
  it("cannot be pointed at another site by a Host with a path or userinfo", () => {
    expect(new URL(requestFromHeaders(new Headers({ host: "evil.example/x@127.0.0.1" }), "/api/auth/session").url).pathname).toBe("/api/auth/session")
    expect(new URL(requestFromHeaders(new Headers({ host: "user@evil.example" }), "/api/auth/session").url).username).toBe("")
  })

  it("takes only http or https from X-Forwarded-Proto", () => {
    expect(requestFromHeaders(new Headers({ host: "app.test", "x-forwarded-proto": "javascript" }), "/x").url).toBe("http://app.test/x")
    expect(requestFromHeaders(new Headers({ host: "app.test", "x-forwarded-proto": "https" }), "/x").url).toBe("https://app.test/x")
  })

  it("does not pass the page's form headers on to core", () => {
    const request = requestFromHeaders(new Headers({ host: "app.test", "next-action": "abc", "content-type": "multipart/form-data" }), "/x", { method: "POST", body: "a=1" })
    expect(request.headers.get("next-action")).toBeNull()
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded")
  })
})

describe("setCookies", () => {
  it("hands core's cookies to cookies().set() with every attribute, Partitioned (CHIPS) included", () => {
    const set: unknown[] = []
    const store = { set: (...args: unknown[]) => set.push(args) } as unknown as CookieStore
    expect(setCookies(store, ["authjs.session-token=a.b.c; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=None; Partitioned", "no-pair", "authjs.csrf-token=x|y; Path=/"])).toBe(true)
    expect(set).toEqual([
      ["authjs.session-token", "a.b.c", { maxAge: 60, path: "/", httpOnly: true, secure: true, sameSite: "none", partitioned: true }],
      ["authjs.csrf-token", "x|y", { path: "/" }],
    ])
  })
})

describe("auth as middleware", () => {
  const warnings: string[] = []
  const { auth } = NextAuth({
    logger: { error: () => undefined, warn: (code) => warnings.push(code) },
    providers: [],
    secret: "KcxOXYgYO4L6uWCFTZ4o-KYt0_yaIXkzV8TcAtiQMVE",
    url: "http://app.test",
    callbacks: { authorized: ({ auth: session }) => session !== null },
  })

  it("sends a signed-out visitor to sign in with a path back", async () => {
    const response = await auth(new NextRequest("http://app.test/dashboard?tab=1"))
    expect(response.status).toBe(307)
    expect(response.headers.get("location")).toBe("http://app.test/api/auth/signin?callbackUrl=%2Fdashboard%3Ftab%3D1")
  })

  it("does not let a Host header choose where the sign-in redirect goes", async () => {
    const response = await auth(new NextRequest("http://app.test/dashboard", { headers: { host: "evil.example" } }))
    expect(new URL(response.headers.get("location") ?? "").origin).toBe("http://app.test")
  })

  it("lets the auth routes themselves through", async () => {
    const response = await auth(new NextRequest("http://app.test/api/auth/signin"))
    expect(response.headers.get("x-middleware-next")).toBe("1")
  })

  it("clears a forged session cookie and treats the visitor as signed out", async () => {
    const response = await auth(new NextRequest("http://app.test/dashboard", { headers: { cookie: "authjs.session-token=forged" } }))
    expect(response.status).toBe(307)
    expect(response.headers.getSetCookie().join()).toMatch(/^authjs\.session-token=; Max-Age=0/)
    expect(warnings).toEqual(["SessionTokenError"])
  })

  it("hands request.auth to a wrapped route handler", async () => {
    const GET = auth((request) => Response.json({ auth: request.auth }))
    const response = await GET(new NextRequest("http://app.test/api/me"), { params: Promise.resolve({}) })
    expect(await response.json()).toEqual({ auth: null })
  })
})
