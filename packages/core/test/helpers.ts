/** Shared test set-up: a configuration factory and a small cookie-carrying client for `Auth()`. */
import { expect, vi } from "vitest"
import { resolveConfig } from "../src/config/config.js"
import { Auth } from "../src/index.js"
import type { Adapter, AdapterSession } from "../src/adapters.js"
import type { CredentialsConfig } from "../src/providers/index.js"
import type { AuthConfig, Session } from "../src/types.js"

/** A secret as `openssl rand -base64 32` writes one: a weak one is warned about (test/secret-strength.test.ts). */
export const SECRET = "e8zbFaJ/5ca4DKMc1PPDjGuYdThBfDBZj/Ry7g4C0VU="
export const ORIGIN = "http://localhost:3000"
/** The one password `passwordProvider()` accepts (for the user `ada`). */
export const PASSWORD = "correct horse battery staple"

/** A plain OAuth 2.0 provider whose endpoints are never called by the tests that use it. */
export function acmeProvider(overrides: Record<string, unknown> = {}) {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth" as const,
    clientId: "acme-client",
    clientSecret: "acme-secret",
    authorization: "https://acme.example/authorize",
    token: "https://acme.example/token",
    userinfo: "https://acme.example/userinfo",
    ...overrides,
  }
}

const passwordFields = {
  username: { label: "Username" },
  password: { label: "Password", type: "password" },
}

/** A credentials provider with a username and a password field, whose one user is ada / PASSWORD. */
export function passwordProvider(overrides: Partial<CredentialsConfig<typeof passwordFields>> = {}): CredentialsConfig<typeof passwordFields> {
  return {
    id: "credentials",
    name: "Password",
    type: "credentials",
    credentials: passwordFields,
    authorize: ({ username, password }) =>
      username === "ada" && password === PASSWORD ? { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", role: "admin" } : null,
    ...overrides,
  }
}

export function testConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: SECRET, trustHost: true, providers: [acmeProvider()], logger: { error: () => undefined, warn: () => undefined }, ...overrides }
}

/** The error `config` is refused with, as `code: message`; fails the test when it is accepted. */
export async function configError(config: AuthConfig): Promise<string> {
  try {
    await resolveConfig(config)
  } catch (error) {
    return `${(error as { code: string }).code}: ${(error as Error).message}`
  }
  throw new Error("expected a configuration error")
}

/**
 * The cookies a response sets, by name, in header order. A cleared cookie (`Max-Age=0`, as
 * `Auth()` clears them) maps to `""`, so one check tells setting from clearing.
 */
export function setCookies(response: Response): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const header of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = header.split(";")
    const eq = pair.indexOf("=")
    const cleared = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))
    cookies.set(pair.slice(0, eq).trim(), cleared ? "" : pair.slice(eq + 1).trim())
  }
  return cookies
}

/** Collects `Set-Cookie` headers into a jar and replays them, like a browser on one origin. */
export class Jar {
  readonly cookies = new Map<string, string>()

  store(response: Response): void {
    for (const [name, value] of setCookies(response)) {
      if (value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

/** Calls `Auth()` with the jar's cookies and stores what it sets. */
export async function call(
  config: AuthConfig,
  jar: Jar,
  path: string,
  init: { method?: string; form?: Record<string, string> | URLSearchParams; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (jar.cookies.size > 0) headers.set("cookie", jar.header())
  let body: string | undefined = init.body
  if (init.form !== undefined) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(init.form).toString()
  }
  const response = await Auth(new Request(new URL(path, ORIGIN), { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body }), config)
  jar.store(response)
  return response
}

/** Fetches a CSRF token (and its cookie) into the jar. */
export async function csrfToken(config: AuthConfig, jar: Jar): Promise<string> {
  const response = await call(config, jar, "/api/auth/csrf")
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** Where a redirect points; throws on a response without a `location`. */
export function location(response: Response): URL {
  return new URL(response.headers.get("location") ?? "")
}

/**
 * Stores a database session as a sign-in would: its row and the session record naming it (a row
 * without one is a pre-switch session, refused outside `legacySessionCookies`).
 */
export async function storeSession(adapter: Adapter, session: AdapterSession, signedIn?: { methods: string[] }): Promise<void> {
  await adapter.createSession?.(session)
  const now = new Date()
  // `signedIn`: the user authenticated just now (a sensitive route asks for a recent authentication); else the session predates the assurance.
  const assurance = signedIn === undefined ? {} : { signedInAt: now, authTime: now, authMethods: signedIn.methods }
  await adapter.createSessionRecord?.({ id: `record-${session.sessionToken}`, userId: session.userId, createdAt: now, lastSeenAt: now, expires: session.expires, sessionToken: session.sessionToken, ...assurance })
}

/** Freezes `Date` (only) at `at`: sign-in times are compared to the second. Undo with `vi.useRealTimers()`. */
export function clockAt(at: number): void {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(at)
}

/** Signs Ada in through {@link passwordProvider}'s form, into `jar`. */
export async function signInWithPassword(config: AuthConfig, jar = new Jar()): Promise<Jar> {
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
  expect(response.status).toBe(302)
  return jar
}

/** What `GET /session` answers for `jar`. */
export async function sessionOf(config: AuthConfig, jar: Jar): Promise<Session | null> {
  return (await (await call(config, jar, "/api/auth/session")).json()) as Session | null
}

/** Opens an emailed link (GET: its confirmation page) and presses the page's button (POST), as a person does. */
export async function followEmailLink(config: AuthConfig, jar: Jar, link: string): Promise<Response> {
  const page = await call(config, jar, link)
  if (page.status !== 200) throw new Error(`the link answered HTTP ${String(page.status)}, not its confirmation page`)
  // The page parser loads only for the tests that follow links.
  const { parseForms } = await import("@portcullis/test-kit/browser")
  const [confirm] = parseForms(await page.text())
  if (confirm?.action === undefined) throw new Error("the link opened no confirmation form")
  const form = new URLSearchParams()
  for (const control of confirm.controls) if (control.type === "hidden") form.set(control.name, control.values[0] ?? "")
  return call(config, jar, confirm.action, { form })
}
