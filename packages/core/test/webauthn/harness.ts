/**
 * Driving passkey ceremonies through `Auth()` for the tests: a configuration with the passkey
 * provider, the options route, the callback, the session, and what a refusal looks like.
 */
import { expect } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { FLOW } from "../../src/providers/index.js"
import type { AuthConfig, SessionAssurance } from "../../src/types.js"
import { webauthn } from "../../src/webauthn/index.js"
import { Jar, ORIGIN, call, csrfToken, testConfig } from "../helpers.js"

export interface Options {
  challenge: string
  rp: { id?: string }
  rpId?: string
  user: { id: string }
  allowCredentials?: unknown[]
  excludeCredentials?: { id: string }[]
}

export function passkeyProvider(fields: Record<string, unknown> = {}) {
  return { id: "passkey", name: "Passkey", type: "webauthn", formFields: { email: { label: "Email", required: true } }, ...fields, [FLOW]: webauthn }
}

/** The errors each configuration logged, newest last. */
const logged = new WeakMap<AuthConfig, string[]>()

export function setup(overrides: Partial<AuthConfig> = {}, provider = passkeyProvider()) {
  const adapter = MemoryAdapter()
  const errors: string[] = []
  const config = testConfig({
    adapter,
    providers: [provider as never],
    logger: { error: (error) => errors.push(`${error.code}: ${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`), warn: () => undefined },
    ...overrides,
  })
  logged.set(config, errors)
  return { adapter: adapter, config, errors }
}

export async function options(config: AuthConfig, jar: Jar, query = "", provider = "passkey"): Promise<{ action: string; options: Options }> {
  if (!jar.cookies.size) await csrfToken(config, jar)
  const response = await call(config, jar, `/api/auth/webauthn-options/${provider}${query}`)
  expect(response.status).toBe(200)
  return (await response.json()) as { action: string; options: Options }
}

export async function post(config: AuthConfig, jar: Jar, action: string, data: unknown, extra: Record<string, string> = {}, provider = "passkey", headers: Record<string, string> = {}): Promise<Response> {
  return call(config, jar, `/api/auth/callback/${provider}`, {
    form: { action, data: typeof data === "string" ? data : JSON.stringify(data), csrfToken: await csrfToken(config, jar), callbackUrl: `${ORIGIN}/account`, ...extra },
    headers,
  })
}

/** The name of the cookie a sign-in's challenge is remembered in, in `jar`. */
export function challengeCookieName(jar: Jar): string | undefined {
  return [...jar.cookies.keys()].find((name) => name.endsWith("authjs.challenge"))
}

export async function session(config: AuthConfig, jar: Jar): Promise<{ user?: { id?: string; email?: string | null }; assurance?: SessionAssurance } | null> {
  return (await (await call(config, jar, "/api/auth/session")).json()) as { user?: { id?: string; email?: string | null }; assurance?: SessionAssurance } | null
}

/** Asserts a refused ceremony: back to the sign-in page with the passkey error, no session, never a 5xx. */
export async function expectRefused(response: Response, config: AuthConfig, jar: Jar, reason?: RegExp): Promise<void> {
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get("location") ?? "")
  expect(location.pathname).toBe("/api/auth/signin")
  expect(location.searchParams.get("error")).toBe("WebAuthnVerificationError")
  expect(await session(config, jar)).toBeNull()
  // The refusal happened for the reason the test is about, not an earlier one.
  if (reason !== undefined) expect(logged.get(config)?.at(-1)).toMatch(reason)
}

