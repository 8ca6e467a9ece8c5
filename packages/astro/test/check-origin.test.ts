/**
 * The opt-in origin check (`portcullis({ checkOrigin: true })` with Astro's own turned off): the
 * answer Astro's check gives, request for request (CSRF, OWASP ASVS V3.5.1), except the two posts core takes from
 * elsewhere and checks itself: a provider's `form_post` callback (OpenID Connect's Form Post
 * Response Mode) and its back-channel logout (OpenID Connect Back-Channel Logout 1.0 §2.5).
 */
import type { APIContext, MiddlewareNext } from "astro"
import { describe, expect, it } from "vitest"
// Astro's own check, which its package does not export: what ours must answer alike.
import { createOriginCheckMiddleware } from "../node_modules/astro/dist/core/app/middlewares.js"
import { onRequest } from "../src/check-origin.js"

const APP = "http://localhost:4321"
const FORM = "application/x-www-form-urlencoded"

/** The status a middleware answers, 200 when it lets the request through. */
async function status(middleware: (context: APIContext, next: MiddlewareNext) => unknown, path: string, init: { method: string; type?: string; origin?: string }): Promise<number> {
  const headers = new Headers()
  if (init.type !== undefined) headers.set("content-type", init.type)
  if (init.origin !== undefined) headers.set("origin", init.origin)
  const request = new Request(`${APP}${path}`, { method: init.method, headers, ...(init.method === "GET" ? {} : { body: "a=b" }) })
  if (init.type === undefined) request.headers.delete("content-type")
  const context = { request, url: new URL(request.url), isPrerendered: false } as unknown as APIContext
  const response = (await middleware(context, () => Promise.resolve(new Response("through")))) as Response
  return response.status
}

const REQUESTS = [
  { method: "GET", origin: "https://evil.example" },
  { method: "POST", type: FORM, origin: APP },
  { method: "POST", type: FORM, origin: "https://evil.example" },
  { method: "POST", type: FORM },
  { method: "POST", type: "multipart/form-data; boundary=x", origin: "null" },
  { method: "POST", type: "text/plain;charset=UTF-8", origin: "https://evil.example" },
  { method: "POST", type: "application/json", origin: "https://evil.example" },
  { method: "POST", origin: "https://evil.example" },
  { method: "DELETE", type: FORM, origin: "https://evil.example" },
]

describe("checkOrigin: true", () => {
  it.each(["/", "/profile", "/api/auth/signin/github", "/api/auth/signout", "/api/auth/sessions/revoke"])("answers as Astro's own check does on %s (ASVS V3.5.1)", async (path) => {
    const astro = createOriginCheckMiddleware() as unknown as (context: APIContext, next: MiddlewareNext) => unknown
    const ours = await Promise.all(REQUESTS.map((init) => status(onRequest, path, init)))
    expect(ours).toEqual(await Promise.all(REQUESTS.map((init) => status(astro, path, init))))
    expect(ours).toContain(403)
  })

  it("lets a provider's form_post callback and its back-channel logout (no Origin) through to core, which Astro's check refuses", async () => {
    const astro = createOriginCheckMiddleware() as unknown as (context: APIContext, next: MiddlewareNext) => unknown
    const formPost = { method: "POST", type: FORM, origin: "https://appleid.apple.com" }
    const logout = { method: "POST", type: FORM }
    expect([await status(onRequest, "/api/auth/callback/apple", formPost), await status(onRequest, "/api/auth/backchannel-logout/idp", logout)]).toEqual([200, 200])
    expect([await status(astro, "/api/auth/callback/apple", formPost), await status(astro, "/api/auth/backchannel-logout/idp", logout)]).toEqual([403, 403])
  })
})
