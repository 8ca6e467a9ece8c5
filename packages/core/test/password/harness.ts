/** What the password tests share: an app with `Password()` on the memory adapter, its mails, and a person's steps. */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { expect, vi } from "vitest"
import { passwordFlow } from "../../src/password/index.js"
import type { PasswordConfig, PasswordOptions } from "../../src/providers/types.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { Jar, SECRET, call, csrfToken, followEmailLink, location } from "../helpers.js"

/** A password that passes the rules (15+ code points, not common). */
export const GOOD_PASSWORD = "lanterns over the quiet harbour"

/** `Password()` as the factory builds it: core's tests take the flow from the source. */
export function passwordProviderConfig(options: PasswordOptions = {}): PasswordConfig {
  return { ...options, id: options.id ?? "password", name: options.name ?? "Password", type: "credentials" as const, ...passwordFlow }
}

export type PasswordApp = AuthConfig & { adapter: ReturnType<typeof MemoryAdapter>; mails: MailMessage[]; logged: string[] }

/** An app with one `Password()` provider, database sessions off, mails and log lines kept. */
export function passwordApp(options: PasswordOptions = {}, overrides: Partial<AuthConfig> = {}): PasswordApp {
  const mails: MailMessage[] = []
  const logged: string[] = []
  const adapter = MemoryAdapter()
  const record = (level: string) => (...args: unknown[]) => void logged.push(`${level} ${args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg))).join(" ")}`)
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [passwordProviderConfig(options)],
    mail: { send: (message) => void mails.push(message) },
    logger: { error: record("error"), warn: record("warn"), debug: () => undefined },
    mails,
    logged,
    ...overrides,
  } as PasswordApp
}

/** Posts a form with a fresh CSRF token. */
export async function post(config: AuthConfig, jar: Jar, path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Response> {
  return call(config, jar, path, { form: { ...form, csrfToken: await csrfToken(config, jar) }, headers })
}

/** The last mail of `kind` to `to`, waited for: the flow sends some off the response path. */
export async function mailTo(app: PasswordApp, to: string, kind: MailMessage["kind"], count = 1): Promise<MailMessage> {
  return vi.waitFor(() => {
    const found = app.mails.filter((mail) => mail.to === to && mail.kind === kind)
    expect(found.length).toBeGreaterThanOrEqual(count)
    return found[count - 1] as MailMessage
  })
}

/** Signs up, follows the verification link, and answers the user's id. */
export async function signUpVerified(app: PasswordApp, email: string, password = GOOD_PASSWORD): Promise<string> {
  const jar = new Jar()
  const response = await post(app, jar, "/api/auth/password/signup", { email, password })
  expect(response.status).toBe(303)
  const mail = await mailTo(app, email, "passwordVerify")
  const done = await followEmailLink(app, jar, mail.url ?? "")
  expect(location(done).searchParams.get("done")).toBe("1")
  const user = await app.adapter.getUserByEmail(email)
  return user?.id ?? ""
}

/** A password sign-in: the response (a redirect into the app, or to the sign-in page with `error`). */
export async function signIn(app: AuthConfig, jar: Jar, email: string, password: string): Promise<Response> {
  return post(app, jar, "/api/auth/callback/password", { email, password })
}
