/**
 * A sign-in through an OpenID Provider's login form with the cookie-jar browser, as an
 * integration's unit tests run it against the dev IdP: core's CSRF token, the built-in page's
 * POST to `{base}/signin/{provider}`, the login form, and a `form_post` answer's auto-submitted form.
 *
 * @module
 */
import type { Page, TestBrowser } from "./browser.js"

/** Where the app is and whom the IdP signs in. */
export interface IdpSignIn {
  /** The app's origin, `http://localhost:3000`. */
  app: string
  /** The login form's fields, `{ login, password }`. */
  account: Record<string, string>
  /** The provider's id. Default `idp`. */
  provider?: string
  /** Core's base path. Default `/api/auth`. */
  base?: string
}

/** Core's CSRF token from `{base}/csrf`, its cookie kept in the browser. */
export async function csrfToken(browser: TestBrowser, app: string, base = "/api/auth"): Promise<string> {
  return ((await (await browser.request(`${app}${base}/csrf`)).json()) as { csrfToken: string }).csrfToken
}

/** Starts a sign-in as the built-in page's button does and logs in at the IdP; returns where the browser lands. */
export async function signInThroughIdp(browser: TestBrowser, { app, account, provider = "idp", base = "/api/auth" }: IdpSignIn): Promise<Page> {
  const body = new URLSearchParams({ csrfToken: await csrfToken(browser, app, base), callbackUrl: "/" })
  const login = await browser.navigate(`${app}${base}/signin/${provider}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body, initiator: `${app}${base}/signin` })
  if (new URL(login.url).origin === app) return login
  let page = await browser.submitForm(login, { values: account })
  // A form_post answer is a page whose form posts the code to the app.
  for (let i = 0; i < 3 && new URL(page.url).origin !== app && page.body.includes("<form"); i++) page = await browser.submitForm(page)
  return page
}

/** What {@link integrationTestConfig} builds a config from: the parts a test package already imports. */
export interface IntegrationTestParts {
  /** The dev IdP's issuer. */
  issuer: string
  /** The client the IdP registered for this app. */
  client: { id: string; secret: string }
  /** The app's secret (32 characters or more, not a placeholder). */
  secret: string
  /** A fresh store (`MemoryAdapter()`). */
  adapter: unknown
  /** A `Credentials` provider (its `authorize` the test's own). */
  credentials: unknown
  /** The checks the OpenID providers ask for (default: the provider's own). */
  checks?: ("pkce" | "state" | "nonce")[]
}

/**
 * The config every integration's unit tests start from: database sessions in the given store, the
 * dev IdP as `idp` (with back-channel logout) and as `idp-post` (`form_post`), the credentials
 * provider, and a logger that records errors in `errors` for the test to assert on. The parts come
 * from the caller, which already depends on them: test-kit builds before the IdP and the adapters.
 */
export function integrationTestConfig<C extends object>(parts: IntegrationTestParts, overrides: Partial<C> = {}): C & { errors: string[] } {
  const errors: string[] = []
  const oidc = { type: "oidc", issuer: parts.issuer, clientId: parts.client.id, clientSecret: parts.client.secret, allowInsecureLoopbackRequests: true, ...(parts.checks === undefined ? {} : { checks: parts.checks }) }
  return {
    secret: parts.secret,
    trustHost: true,
    adapter: parts.adapter,
    session: { strategy: "database" },
    providers: [
      { ...oidc, id: "idp", name: "Dev IdP", backchannelLogout: true },
      { ...oidc, id: "idp-post", name: "Dev IdP (form_post)", authorization: { params: { response_mode: "form_post" } } },
      parts.credentials,
    ],
    logger: { error: (error: { code?: string; message: string }) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    ...overrides,
    errors,
  } as unknown as C & { errors: string[] }
}

/** What an integration's guarded route (`GET {app}/recent`, answering `requireRecentAuth`'s JSON) answered at each step. */
export interface RecentAuthWalk {
  signedOut: unknown
  recent: unknown
  stale: unknown
}

/** The part of vitest's `vi` that moves `Date` (and only it). */
export interface FakeClock {
  useFakeTimers(options: { toFake: "Date"[] }): unknown
  setSystemTime(time: number): unknown
  useRealTimers(): unknown
}

/**
 * Walks an integration's guarded route: signed out, just after `signIn`, and past
 * `session.reauthAge` (601 seconds later on `clock`, the test's `vi`, faking `Date` only).
 */
export async function walkRecentAuth(browser: TestBrowser, { app, signIn, clock }: { app: string; signIn: () => Promise<unknown>; clock: FakeClock }): Promise<RecentAuthWalk> {
  const read = async (): Promise<unknown> => (await browser.request(`${app}/recent`)).json()
  const signedOut = await read()
  await signIn()
  const recent = await read()
  clock.useFakeTimers({ toFake: ["Date"] })
  clock.setSystemTime(Date.now() + 601_000)
  try {
    return { signedOut, recent, stale: await read() }
  } finally {
    clock.useRealTimers()
  }
}

/** What {@link walkRecentAuth} should see for a user `email` on an app whose core routes are at `{app}{base}`. */
export function expectedRecentAuthWalk(app: string, email: string, base = "/api/auth"): { signedOut: unknown; recent: unknown; stale: unknown } {
  const back = encodeURIComponent(`${app}/recent`)
  return {
    signedOut: { ok: false, url: `${app}${base}/signin?callbackUrl=${back}` },
    recent: { ok: true, session: { user: { email } } },
    stale: { ok: false, url: `${app}${base}/reauth?callbackUrl=${back}` },
  }
}

/** Signs in with a credentials provider's fields through core's callback route, as the built-in form posts them. */
export async function credentialsSignIn(browser: TestBrowser, app: string, fields: Record<string, string>, base = "/api/auth"): Promise<void> {
  const body = new URLSearchParams({ csrfToken: await csrfToken(browser, app, base), callbackUrl: "/", ...fields })
  await browser.navigate(`${app}${base}/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body, initiator: `${app}${base}/signin` })
}
