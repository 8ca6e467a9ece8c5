// `listSessions` and `revokeSessions` from NextAuth(): the request read from `headers()`, core's
// answer, and the cookies core sets handed to `cookies()` (signing out everywhere clears this one).
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, type AuthConfig } from "@portcullis/core"
import { beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth from "../src/index.js"

const ORIGIN = "http://app.test"
const PASSWORD = "correct horse battery staple"

const next = vi.hoisted(() => ({ headers: new Headers(), set: new Map<string, string>() }))

vi.mock("next/headers.js", () => ({
  headers: () => Promise.resolve(next.headers),
  cookies: () =>
    Promise.resolve({
      set: (name: string, value: string) => void next.set.set(name, value),
      delete: (name: string) => void next.set.set(name, ""),
    }),
}))

const config: AuthConfig = {
  secret: "a-unit-test-secret-of-at-least-32-chars",
  url: ORIGIN,
  adapter: MemoryAdapter(),
  session: { strategy: "jwt", revocationCheckInterval: 0 },
  providers: [{ id: "credentials", name: "Password", type: "credentials", credentials: { password: {} }, authorize: ({ password }) => (password === PASSWORD ? { id: "ada", name: "Ada" } : null) }],
  logger: { error: () => undefined, warn: () => undefined },
}
const { listSessions, revokeSessions } = NextAuth(config)

/** Signs a browser in through core's routes and answers its cookie header. */
async function signIn(agent: string): Promise<string> {
  const csrf = await Auth(new Request(`${ORIGIN}/api/auth/csrf`), config)
  const jar = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await Auth(
    new Request(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie: jar, "content-type": "application/x-www-form-urlencoded", "user-agent": agent },
      body: new URLSearchParams({ csrfToken, password: PASSWORD }),
    }),
    config,
  )
  return response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
}

async function session(cookie: string): Promise<unknown> {
  return (await Auth(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie } }), config)).json()
}

beforeEach(() => {
  next.set.clear()
})

describe("sessions from NextAuth()", () => {
  it("lists the user's sessions, ends the others, then signs out everywhere clearing this cookie", async () => {
    const laptop = await signIn("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
    const phone = await signIn("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
    next.headers = new Headers({ host: "app.test", cookie: laptop })
    expect((await listSessions())?.map((entry) => [entry.device, entry.current])).toEqual([["Firefox on Linux", true], ["Safari on iPhone", false]])

    expect(await revokeSessions({ others: true })).toEqual({ revoked: 1 })
    expect(await session(phone)).toBeNull()

    expect(await revokeSessions({ all: true }, { redirectTo: "/bye" })).toEqual({ revoked: 1, url: `${ORIGIN}/bye` })
    expect(next.set.get("authjs.session-token")).toBe("")
    expect(await session(laptop)).toBeNull()
  })

  it("answers null when signed out", async () => {
    next.headers = new Headers({ host: "app.test" })
    expect(await listSessions()).toBeNull()
    expect(await revokeSessions({ others: true })).toBeNull()
  })
})
