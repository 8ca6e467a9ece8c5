/**
 * The `signIn` / `signOut` form actions without a SvelteKit server: what they ask of core,
 * counted call by call, and what they hand to `event.cookies` and SvelteKit's redirect. Core is
 * the real one, each export wrapped to count its calls.
 */
import type * as Core from "@portcullis/core"
import { isRedirect, type RequestEvent } from "@sveltejs/kit"
import { acmeOAuthProvider } from "@portcullis/test-kit/fixtures"
import { beforeEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../src/index.js"

const counted = vi.hoisted(() => ({ coreCalls: [] as string[] }))

vi.mock("@portcullis/core", async (importOriginal) => {
  const actual = await importOriginal<typeof Core>()
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(actual)) {
    wrapped[name] =
      // Reading the environment (readEnv, envValue...) handles no request: only request handling counts.
      typeof value === "function" && !/^(readEnv|env)/.test(name)
        ? (...args: unknown[]) => {
            counted.coreCalls.push(name)
            return (value as (...args: unknown[]) => unknown)(...args)
          }
        : value
  }
  return wrapped
})

/** What core warned about: the fake events carry no client address. */
const warnings: string[] = []

const { signIn, signOut } = SvelteKitAuth({
  secret: "ey1EvHi5oi8su5T4uWnnLVGtdXFM0NpLkufQ0Wa7Gv0",
  url: "http://app.test",
  logger: { error: () => undefined, warn: (code) => warnings.push(code) },
  providers: [
    acmeOAuthProvider(),
    {
      id: "credentials",
      name: "Password",
      type: "credentials",
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => (username === "carol" && password === "carol-password" ? { id: "carol", email: "carol@example.com" } : null),
    },
  ],
})

/** A form action's event: the form posted from `/signin`, with the browser's cookies. */
function event(fields: Record<string, string>, cookies = new Map<string, string>()): { event: RequestEvent; set: Map<string, string> } {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const headers = new Headers({ origin: "http://app.test", referer: "http://app.test/signin" })
  if (cookies.size > 0) headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "))
  const set = new Map<string, string>()
  const request = new Request("http://app.test/signin", { method: "POST", headers, body })
  const fake = { request, url: new URL(request.url), cookies: { set: (name: string, value: string) => set.set(name, value) } }
  return { event: fake as unknown as RequestEvent, set }
}

/** Runs an action and answers where SvelteKit's redirect sends the browser. */
async function redirected(run: () => unknown): Promise<string> {
  try {
    await run()
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown.location
    throw thrown
  }
  throw new Error("the action did not redirect")
}

beforeEach(() => {
  counted.coreCalls.length = 0
})

describe("a form-action sign-in makes one call to core", () => {
  it("signs in with credentials: one signIn, no Auth()", async () => {
    const { event: posted, set } = event({ providerId: "credentials", username: "carol", password: "carol-password", redirectTo: "/dashboard" })
    expect(await redirected(() => signIn(posted))).toBe("http://app.test/dashboard")
    expect(counted.coreCalls).toEqual(["signIn"])
    expect([...set.keys()]).toContain("authjs.session-token")
    // An event without getClientAddress: core goes without the per-client limits and says so once.
    expect(warnings).toEqual(["ClientAddressUnknown"])
  })

  it("starts an OAuth sign-in with the form's authorization parameters in one signIn", async () => {
    const { event: posted } = event({ providerId: "acme", "authorizationParams-prompt": "login" })
    const target = new URL(await redirected(() => signIn(posted)))
    expect(counted.coreCalls).toEqual(["signIn"])
    expect(`${target.origin}${target.pathname}`).toBe("https://acme.example/authorize")
    expect(target.searchParams.get("prompt")).toBe("login")
  })

  it("signs out in one signOut", async () => {
    const { event: posted, set } = event({ providerId: "credentials", username: "carol", password: "carol-password" })
    await redirected(() => signIn(posted))
    counted.coreCalls.length = 0
    const { event: out, set: cleared } = event({ redirectTo: "/bye" }, set)
    expect(await redirected(() => signOut(out))).toBe("http://app.test/bye")
    expect(counted.coreCalls).toEqual(["signOut"])
    expect(cleared.get("authjs.session-token")).toBe("")
  })
})
