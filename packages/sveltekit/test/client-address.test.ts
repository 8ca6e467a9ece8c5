/**
 * The client address SvelteKit knows (`event.getClientAddress()`) reaching core's per-client
 * limits, through the `handle` hook and the `signIn` form action, without a SvelteKit server.
 */
import { isHttpError, type RequestEvent } from "@sveltejs/kit"
import { acmeOAuthProvider } from "@portcullis/test-kit/fixtures"
import { describe, expect, it } from "vitest"
import { SvelteKitAuth } from "../src/index.js"

function setup() {
  const warnings: string[] = []
  const auth = SvelteKitAuth({
    secret: "4UQj/AcqPt1D6oMcpjIbhKUM9sHvUPdafyORGjgScpk=",
    url: "http://app.test",
    logger: { error: () => undefined, warn: (code) => warnings.push(code) },
    providers: [acmeOAuthProvider()],
    rateLimit: { perClient: { signIn: { limit: 1 } } },
  })
  return { ...auth, warnings }
}

/** A POST event from `address` (or an adapter whose `getClientAddress()` throws), with the headers the page set. */
function event(path: string, address: string | Error, form?: Record<string, string>): { event: RequestEvent; headers: Record<string, string> } {
  const body = form === undefined ? undefined : new URLSearchParams(form)
  const request = new Request(`http://app.test${path}`, { method: "POST", headers: { origin: "http://app.test", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) }, body })
  const headers: Record<string, string> = {}
  const fake = {
    request,
    url: new URL(request.url),
    locals: {},
    cookies: { set: () => undefined },
    getClientAddress: () => {
      if (address instanceof Error) throw address
      return address
    },
    setHeaders: (set: Record<string, string>) => Object.assign(headers, set),
  }
  return { event: fake as unknown as RequestEvent, headers }
}

describe("the handle hook", () => {
  it("counts each client by getClientAddress(): the second sign-in start of one client is answered 429", async () => {
    const { handle } = setup()
    const post = async (address: string) => handle({ event: event("/auth/signin/acme", address).event, resolve: () => new Response("page") })
    expect((await post("203.0.113.7")).status).toBe(302)
    const refused = await post("203.0.113.7")
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await post("203.0.113.8")).status).toBe(302)
  })

  it("goes without an address when the adapter cannot tell it, and core says so once", async () => {
    const { handle, warnings } = setup()
    for (let i = 0; i < 3; i++) {
      const response = await handle({ event: event("/auth/signin/acme", new Error("no address in prerendering")).event, resolve: () => new Response("page") })
      expect(response.status).toBe(302)
    }
    expect(warnings).toEqual(["ClientAddressUnknown"])
  })
})

describe("the signIn form action", () => {
  it("counts the action's sign-in under the client's address and answers SvelteKit's 429 with Retry-After", async () => {
    const { signIn } = setup()
    const first = event("/signin", "198.51.100.3", { providerId: "acme" })
    await expect(signIn(first.event)).rejects.toMatchObject({ status: 303 })
    const second = event("/signin", "198.51.100.3", { providerId: "acme" })
    const thrown: unknown = await Promise.resolve(signIn(second.event)).catch((error: unknown) => error)
    expect(isHttpError(thrown, 429)).toBe(true)
    expect(Number(second.headers["retry-after"])).toBeGreaterThan(0)
  })
})
