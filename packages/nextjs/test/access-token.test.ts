// `getAccessToken` from NextAuth(): where Next.js can set cookies (a server action, a route
// handler) a due refresh of tokens kept in the session cookie is spent and the renewed cookie set;
// while a server component renders it cannot be, so the valid token is answered and a due refresh
// is refused before the refresh token reaches the provider.
import { encode } from "@portcullis/core/jwt"
import { acmeOAuthProvider } from "@portcullis/test-kit/fixtures"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth from "../src/index.js"

const SECRET = "KcxOXYgYO4L6uWCFTZ4o-KYt0_yaIXkzV8TcAtiQMVE"
const COOKIE = "authjs.session-token"

const next = vi.hoisted(() => ({
  headers: new Headers(),
  /** Whether the cookie store refuses writes, as while a server component renders. */
  readOnly: false,
  set: new Map<string, string>(),
}))

vi.mock("next/headers.js", () => ({
  headers: () => Promise.resolve(next.headers),
  cookies: () =>
    Promise.resolve({
      set: (name: string, value: string) => {
        if (next.readOnly) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
        next.set.set(name, value)
      },
      delete: (name: string) => {
        if (next.readOnly) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
        next.set.set(name, "")
      },
    }),
}))

const { getAccessToken } = NextAuth({
  secret: SECRET,
  url: "http://app.test",
  providers: [
    acmeOAuthProvider({ tokensInCookie: true }),
  ],
})

/** Refresh grants that reached the provider's token endpoint. */
let grants: URLSearchParams[] = []

/** A browser signed in with Acme, its access token expiring at `expiresAt` (seconds). */
async function signedIn(expiresAt: number): Promise<void> {
  const token = await encode({
    secret: SECRET,
    salt: COOKIE,
    token: { sub: "carol", providerTokens: { acme: { providerAccountId: "carol-at-acme", access_token: "old-access", refresh_token: "old-refresh", expires_at: expiresAt } } },
  })
  next.headers = new Headers({ host: "app.test", cookie: `${COOKIE}=${token}` })
}

beforeEach(() => {
  grants = []
  next.set.clear()
  next.readOnly = false
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

describe("getAccessToken from NextAuth()", () => {
  it("answers a fresh token without a refresh, in a server component too", async () => {
    next.readOnly = true
    await signedIn(Math.floor(Date.now() / 1000) + 3600)
    expect(await getAccessToken("acme")).toMatchObject({ accessToken: "old-access" })
    expect(grants).toEqual([])
  })

  it("refreshes a due token in a server action and sets the renewed session cookie", async () => {
    await signedIn(Math.floor(Date.now() / 1000) - 10)
    expect(await getAccessToken("acme")).toMatchObject({ accessToken: "new-access" })
    expect(grants.map((grant) => grant.get("refresh_token"))).toEqual(["old-refresh"])
    expect(next.set.get(COOKIE)?.split(".")).toHaveLength(5)
  })

  it("refuses a due refresh in a server component, before the refresh token reaches the provider", async () => {
    next.readOnly = true
    await signedIn(Math.floor(Date.now() / 1000) - 10)
    await expect(getAccessToken("acme")).rejects.toMatchObject({ code: "RefreshTokenError", message: expect.stringContaining("server component") as string })
    expect(grants).toEqual([])
  })

  it("answers null when signed out", async () => {
    next.headers = new Headers({ host: "app.test" })
    expect(await getAccessToken("acme")).toBeNull()
  })
})
