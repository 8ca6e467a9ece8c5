// `event.locals.getAccessToken()`: the handle hook gives load functions and endpoints core's
// getAccessToken, refreshing a due token and writing the renewed session cookie on the response.
import { encode } from "@portcullis/core/jwt"
import type { RequestEvent } from "@sveltejs/kit"
import { acmeOAuthProvider } from "@portcullis/test-kit/fixtures"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../src/index.js"

const SECRET = "ey1EvHi5oi8su5T4uWnnLVGtdXFM0NpLkufQ0Wa7Gv0"
const COOKIE = "authjs.session-token"

const { handle } = SvelteKitAuth({
  secret: SECRET,
  url: "http://app.test",
  providers: [
    acmeOAuthProvider({ tokensInCookie: true }),
  ],
})

let grants: URLSearchParams[] = []

/** Runs the handle hook for a page request carrying a session whose Acme token expires at `expiresAt`, and answers its locals and the cookies it set. */
async function page(expiresAt: number | undefined): Promise<{ locals: App.Locals; set: Map<string, string> }> {
  const headers = new Headers()
  if (expiresAt !== undefined) {
    const token = await encode({
      secret: SECRET,
      salt: COOKIE,
      token: { sub: "carol", providerTokens: { acme: { providerAccountId: "carol-at-acme", access_token: "old-access", refresh_token: "old-refresh", expires_at: expiresAt } } },
    })
    headers.set("cookie", `${COOKIE}=${token}`)
  }
  const request = new Request("http://app.test/repos", { headers })
  const set = new Map<string, string>()
  const event = { request, url: new URL(request.url), locals: {}, cookies: { set: (name: string, value: string) => set.set(name, value) } } as unknown as RequestEvent
  await handle({ event, resolve: () => Promise.resolve(new Response("page")) })
  return { locals: event.locals, set }
}

beforeEach(() => {
  grants = []
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    if (request.url !== "https://acme.example/token") throw new Error(`unexpected request to ${request.url}`)
    grants.push(new URLSearchParams(await request.text()))
    return Response.json({ access_token: "new-access", refresh_token: "new-refresh", token_type: "Bearer", expires_in: 3600 })
  })
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("event.locals.getAccessToken", () => {
  it("answers a fresh token without a refresh", async () => {
    const { locals } = await page(Math.floor(Date.now() / 1000) + 3600)
    expect(await locals.getAccessToken("acme")).toMatchObject({ accessToken: "old-access" })
    expect(grants).toEqual([])
  })

  it("refreshes a due token and writes the renewed session cookie", async () => {
    const { locals, set } = await page(Math.floor(Date.now() / 1000) - 10)
    expect(await locals.getAccessToken("acme")).toMatchObject({ accessToken: "new-access" })
    expect(grants.map((grant) => grant.get("refresh_token"))).toEqual(["old-refresh"])
    expect(set.get(COOKIE)?.split(".")).toHaveLength(5)
  })

  it("answers null when signed out", async () => {
    const { locals } = await page(undefined)
    expect(await locals.getAccessToken("acme")).toBeNull()
  })
})
