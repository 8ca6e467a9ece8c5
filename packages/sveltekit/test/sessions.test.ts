// `event.locals.listSessions()` and `event.locals.revokeSessions()`: the handle hook gives load
// functions and form actions core's session list, with core's cookies written on the response.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, type AuthConfig } from "@portcullis/core"
import type { RequestEvent } from "@sveltejs/kit"
import { describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../src/index.js"

const ORIGIN = "http://app.test"
const PASSWORD = "correct horse battery staple"

const config: AuthConfig = {
  secret: "a-unit-test-secret-of-at-least-32-chars",
  url: ORIGIN,
  basePath: "/auth",
  adapter: MemoryAdapter(),
  session: { strategy: "database", revocationCheckInterval: 0 },
  providers: [{ id: "credentials", name: "Password", type: "credentials", credentials: { password: {} }, authorize: ({ password }) => (password === PASSWORD ? user : null) }],
  logger: { error: () => undefined, warn: () => undefined },
}
const user = await (config.adapter?.createUser?.({ id: "", name: "Ada", email: "ada@example.com", emailVerified: null }) ?? Promise.reject(new Error("no store")))
const { handle } = SvelteKitAuth(config)

/** Signs a browser in through core's routes and answers its cookie header. */
async function signIn(agent: string): Promise<string> {
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const jar = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie: jar, "content-type": "application/x-www-form-urlencoded", "user-agent": agent },
      body: new URLSearchParams({ csrfToken, password: PASSWORD }),
    }),
    config,
  )
  return response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
}

/** Runs the handle hook for a page request with `cookie`, answering its locals and the cookies it set. */
async function page(cookie: string): Promise<{ locals: App.Locals; set: Map<string, string> }> {
  const request = new Request(`${ORIGIN}/devices`, { headers: { cookie } })
  const set = new Map<string, string>()
  const event = { request, url: new URL(request.url), locals: {}, cookies: { set: (name: string, value: string) => set.set(name, value) } } as unknown as RequestEvent
  await handle({ event, resolve: () => Promise.resolve(new Response("page")) })
  return { locals: event.locals, set }
}

describe("event.locals sessions", () => {
  it("lists the user's sessions, ends another by id, then signs out everywhere clearing this cookie", async () => {
    const laptop = await signIn("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
    const phone = await signIn("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")
    const { locals } = await page(laptop)
    const listed = await locals.listSessions()
    expect(listed?.map((entry) => [entry.device, entry.current])).toEqual([["Firefox on Linux", true], ["Chrome on Android", false]])

    expect(await locals.revokeSessions({ id: listed?.[1]?.id ?? "" })).toEqual({ revoked: 1 })
    expect(await (await page(phone)).locals.auth()).toBeNull()

    const action = await page(laptop)
    expect(await action.locals.revokeSessions({ all: true })).toEqual({ revoked: 1, url: `${ORIGIN}/` })
    expect(action.set.get("authjs.session-token")).toBe("")
    expect(await (await page(laptop)).locals.auth()).toBeNull()
    expect(await (await page(laptop)).locals.listSessions()).toBeNull()
  })
})

describe("event.locals.requireRecentAuth", () => {
  it("V7.5.1: answers the session after a recent sign-in, and the re-authentication page under /auth once it is stale", async () => {
    const cookie = await signIn("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
    expect(await (await page(cookie)).locals.requireRecentAuth()).toMatchObject({ ok: true, session: { user: { email: "ada@example.com" } } })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 601_000)
    try {
      expect(await (await page(cookie)).locals.requireRecentAuth()).toEqual({ ok: false, url: `${ORIGIN}/auth/reauth?callbackUrl=${encodeURIComponent(`${ORIGIN}/devices`)}` })
      expect(await (await page(cookie)).locals.requireRecentAuth({ level: 2 })).toEqual({ ok: false, url: `${ORIGIN}/auth/mfa/setup` })
    } finally {
      vi.useRealTimers()
    }
    expect(await (await page("")).locals.requireRecentAuth()).toEqual({ ok: false, url: `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/devices`)}` })
  })
})
