/**
 * The server actions (`signIn`, `signOut`, `unstable_update`) without a Next.js server: what
 * they ask of core, counted call by call, and what they hand to `cookies()` and `redirect()`.
 * Next.js's `headers()`, `cookies()` and `redirect()` are stood in for; core is the real one,
 * each export wrapped to count its calls.
 */
import type * as Core from "@portcullis/core"
import { acmeOAuthProvider } from "@portcullis/test-kit/fixtures"
import { beforeEach, describe, expect, it, vi } from "vitest"
import NextAuth from "../src/index.js"

const next = vi.hoisted(() => ({
  /** Every call into `@portcullis/core`, by export name. */
  coreCalls: [] as string[],
  headers: new Headers(),
  cookies: new Map<string, { value: string; options: unknown }>(),
  redirects: [] as string[],
}))

vi.mock("@portcullis/core", async (importOriginal) => {
  const actual = await importOriginal<typeof Core>()
  const counted: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(actual)) {
    counted[name] =
      // Reading the environment (readEnv, envValue...) handles no request: only request handling counts.
      typeof value === "function" && !/^(readEnv|env)/.test(name)
        ? (...args: unknown[]) => {
            next.coreCalls.push(name)
            return (value as (...args: unknown[]) => unknown)(...args)
          }
        : value
  }
  return counted
})

vi.mock("next/headers.js", () => ({
  headers: () => Promise.resolve(next.headers),
  cookies: () => Promise.resolve({ set: (name: string, value: string, options: unknown) => next.cookies.set(name, { value, options }) }),
}))

vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    next.redirects.push(url)
  },
}))

const PASSWORD = "carol-password"

/** What core logged, by code: a server action has no client address, a refused password is an error. */
const logged: string[] = []

const { requireRecentAuth, signIn, signOut, unstable_update } = NextAuth({
  logger: { error: (error) => logged.push(error.code), warn: (code) => logged.push(code) },
  secret: "KcxOXYgYO4L6uWCFTZ4o-KYt0_yaIXkzV8TcAtiQMVE",
  url: "http://app.test",
  providers: [
    acmeOAuthProvider(),
    {
      id: "password",
      name: "Password",
      type: "credentials",
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => (username === "carol" && password === PASSWORD ? { id: "carol", email: "carol@example.com" } : null),
    },
  ],
  callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name?: string }).name } : token) },
})

/** The browser's request to the page whose action runs, with the cookies it holds. */
function browser(cookies: Map<string, { value: string }> = new Map()): void {
  next.headers = new Headers({ host: "app.test", referer: "http://app.test/account", "next-action": "abc", "content-type": "multipart/form-data; boundary=x" })
  if (cookies.size > 0) next.headers.set("cookie", [...cookies].map(([name, { value }]) => `${name}=${value}`).join("; "))
  next.coreCalls.length = 0
  next.cookies.clear()
  next.redirects.length = 0
}

function passwordForm(password: string): FormData {
  const form = new FormData()
  form.set("username", "carol")
  form.set("password", password)
  form.set("redirectTo", "/dashboard")
  form.set("$ACTION_ID_abc", "")
  return form
}

/** Signs carol in and answers the cookies the browser then holds. */
async function signedIn(): Promise<Map<string, { value: string }>> {
  browser()
  await signIn("password", passwordForm(PASSWORD))
  return new Map(next.cookies)
}

beforeEach(() => {
  browser()
})

describe("a server-action sign-in makes one call to core", () => {
  it("signs in with credentials from the action's FormData: one signIn, no Auth()", async () => {
    await signIn("password", passwordForm(PASSWORD))
    expect(next.coreCalls).toEqual(["signIn"])
    expect(next.redirects).toEqual(["http://app.test/dashboard"])
    expect([...next.cookies.keys()]).toContain("authjs.session-token")
    // Next.js gives an action no client address: core goes without the per-client limits and says so once.
    expect(logged).toEqual(["ClientAddressUnknown"])
  })

  it("sends a refused password to the sign-in page's error in the same one call", async () => {
    logged.length = 0
    await signIn("password", passwordForm("wrong"))
    expect(logged).toEqual(["CredentialsSignin"])
    expect(next.coreCalls).toEqual(["signIn"])
    const target = new URL(next.redirects[0] ?? "")
    expect(target.pathname).toBe("/api/auth/signin")
    expect(target.searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("starts an OAuth sign-in with its authorization parameters: one signIn, its check cookies set", async () => {
    const target = await signIn("acme", { redirectTo: "/dashboard", redirect: false }, { prompt: "login" })
    expect(next.coreCalls).toEqual(["signIn"])
    expect(next.redirects).toEqual([])
    const url = new URL(target)
    expect(`${url.origin}${url.pathname}`).toBe("https://acme.example/authorize")
    expect(url.searchParams.get("prompt")).toBe("login")
    expect(url.searchParams.get("redirect_uri")).toBe("http://app.test/api/auth/callback/acme")
    expect([...next.cookies.keys()].sort()).toEqual(["authjs.callback-url", "authjs.csrf-token", "authjs.pkce.code_verifier"])
  })

  it("opens the sign-in page without a provider, back to the page the action came from", async () => {
    await signIn()
    expect(next.coreCalls).toEqual(["signIn"])
    expect(next.redirects).toEqual(["http://app.test/api/auth/signin?callbackUrl=http%3A%2F%2Fapp.test%2Faccount"])
  })

  it("signs out with one signOut, clearing the session cookie", async () => {
    const cookies = await signedIn()
    browser(cookies)
    await signOut({ redirectTo: "/bye" })
    expect(next.coreCalls).toEqual(["signOut"])
    expect(next.redirects).toEqual(["http://app.test/bye"])
    expect(next.cookies.get("authjs.session-token")?.value).toBe("")
  })

  it("updates the session with one updateSession", async () => {
    const cookies = await signedIn()
    browser(cookies)
    const session = await unstable_update({ name: "Caroline" })
    expect(next.coreCalls).toEqual(["updateSession"])
    expect(session?.user?.name).toBe("Caroline")
  })
})

describe("requireRecentAuth in a server action", () => {
  it("V7.5.1: answers the session after a recent sign-in in one call to core", async () => {
    browser(await signedIn())
    const recent = await requireRecentAuth()
    expect(next.coreCalls).toEqual(["requireRecentAuthForResponse"])
    expect(recent).toMatchObject({ ok: true, session: { user: { email: "carol@example.com" } } })
  })

  it("V7.5.1: sends a stale one to the re-authentication page, back to the page the action came from", async () => {
    browser(await signedIn())
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 601_000)
    try {
      expect(await requireRecentAuth()).toEqual({ ok: false, url: `http://app.test/api/auth/reauth?callbackUrl=${encodeURIComponent("http://app.test/account")}` })
      expect(await requireRecentAuth({ maxAge: 3600, callbackUrl: "/settings" })).toMatchObject({ ok: true })
    } finally {
      vi.useRealTimers()
    }
  })

  it("level 2 for a user without a second factor: to /mfa/setup", async () => {
    browser(await signedIn())
    expect(await requireRecentAuth({ level: 2 })).toEqual({ ok: false, url: "http://app.test/api/auth/mfa/setup" })
  })
})
