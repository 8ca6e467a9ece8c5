/**
 * Two app instances in separate Node processes behind one public origin (a load balancer the
 * test steers), sharing one store, with a real OpenID Provider: the harness of the scale-out
 * tests here and of Auth.js's adapters in @portcullis/authjs-adapters-test.
 */
import { fileURLToPath } from "node:url"
import { startDevIdp, type DevIdp, type DevIdpClient, type DevIdpOptions } from "@portcullis/dev-idp"
import { startAppProcess, type AppProcess } from "@portcullis/test-kit/app-process"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { afterAll, beforeAll } from "vitest"
import { scaled } from "@portcullis/test-time"

export const APP = "http://localhost:3000"
export const CLIENT = { id: "scale-out", secret: "scale-out-client-secret" }
export const SECRET = "a-scale-out-secret-of-at-least-32-characters"
export const BOB = { login: "bob@example.net", password: "bob-password" }
export const ALICE = { login: "alice@example.com", password: "alice-password" }

/** An app instance: what it printed (its `auth-error` lines tell why a sign-in failed), and how to stop it. */
export type Instance = AppProcess

/**
 * Starts test/instance.ts in its own Node process and waits until it listens. `env` names the
 * database (`DATABASE_URL`) and, with `ADAPTER_MODULE`, a module whose default export makes the
 * adapter from a pool (else this package's `PostgresAdapter`).
 */
export function startInstance(env: Record<string, string>): Promise<Instance> {
  return startAppProcess(fileURLToPath(new URL("instance.ts", import.meta.url)), {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env,
    readyTimeout: scaled(20_000),
  })
}

export async function stopInstance(instance: Instance | undefined): Promise<void> {
  await instance?.stop()
}

/**
 * A browser whose requests to the app's public origin go to whichever instance `target` names,
 * as a load balancer would send them. With `hold` set, the next callback request is recorded
 * instead of forwarded, so two callbacks can be released at once.
 */
export class Visitor {
  readonly browser: TestBrowser
  target: Instance
  hold = false
  held: URL | undefined

  constructor(target: Instance) {
    this.target = target
    this.browser = new TestBrowser({
      routes: {
        [APP]: async (request) => {
          const url = new URL(request.url)
          if (this.hold && url.pathname.startsWith("/api/auth/callback/")) {
            this.hold = false
            this.held = url
            return new Response("held")
          }
          const forwarded = await fetch(new URL(url.pathname + url.search, this.target.origin), {
            method: request.method,
            headers: request.headers,
            body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
            redirect: "manual",
          })
          return new Response(forwarded.body, { status: forwarded.status, headers: forwarded.headers })
        },
      },
    })
  }

  async csrfToken(): Promise<string> {
    const response = await this.browser.request(`${APP}/api/auth/csrf`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** Signs in at the IdP (login, then consent) and returns the page the flow ends on. */
  async signIn(account: { login: string; password: string }): Promise<Page> {
    let page = await this.browser.navigate(`${APP}/api/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await this.csrfToken(), callbackUrl: "/protected" }),
      initiator: `${APP}/api/auth/signin`,
    })
    for (let step = 0; step < 3 && new URL(page.url).origin !== APP && page.body.includes("<form"); step++) {
      page = page.body.includes(">Allow<")
        ? await this.browser.submitForm(page, { button: "Allow" })
        : await this.browser.submitForm(page, { values: account })
    }
    return page
  }

  /** Runs a sign-in up to its callback request, which is kept for {@link release}. */
  async signInUntilCallback(account: { login: string; password: string }): Promise<URL> {
    this.hold = true
    await this.signIn(account)
    if (this.held === undefined) throw new Error("the sign-in never reached the callback")
    return this.held
  }

  async release(callback: URL): Promise<Page> {
    return this.browser.navigate(callback, { initiator: "http://127.0.0.1/" })
  }

  async session(): Promise<{ user?: { id?: string; email?: string } } | null> {
    const response = await this.browser.request(`${APP}/api/auth/session`)
    return (await response.json()) as { user?: { id?: string; email?: string } } | null
  }

  /** Asks for a sign-in link to `email` (test/instance.ts prints it when started with EMAIL_LINKS=1). */
  async requestLink(email: string): Promise<Page> {
    return this.browser.navigate(`${APP}/api/auth/signin/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await this.csrfToken(), email, callbackUrl: "/welcome" }),
      initiator: `${APP}/api/auth/signin`,
    })
  }

  /** Presses the confirmation page's button of a sign-in link, with a CSRF token fetched before. */
  async followLink(link: URL, csrfToken: string): Promise<Page> {
    const { token, email, callbackUrl } = Object.fromEntries(link.searchParams)
    return this.browser.navigate(`${APP}/api/auth/callback/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, token: token ?? "", email: email ?? "", callbackUrl: callbackUrl ?? "" }),
      initiator: link.href,
    })
  }

  async signOut(): Promise<Page> {
    return this.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await this.csrfToken() }),
      initiator: `${APP}/api/auth/signout`,
    })
  }
}

/** What an instance of the app reads: `env`, the OpenID Provider and the app's secret and public URL. */
export function instanceEnv(idp: DevIdp, env: Record<string, string>): Record<string, string> {
  return { ...env, ISSUER: idp.issuer, CLIENT_ID: CLIENT.id, CLIENT_SECRET: CLIENT.secret, AUTH_SECRET: SECRET, AUTH_URL: `${APP}/api/auth` }
}

/**
 * Starts the OpenID Provider and two instances before the calling block's tests and stops them
 * after. `env` gives what an instance needs beyond the IdP and the app's secret and URL (its
 * `DATABASE_URL`, and `ADAPTER_MODULE` with what that module reads), read in `beforeAll`.
 * Returns an accessor, valid inside tests.
 */
export function useTwoInstances(env: () => Record<string, string>): () => [Instance, Instance] {
  const running = useInstancesAndIdp(env)
  return () => running().instances
}

/**
 * {@link useTwoInstances}, with the OpenID Provider in reach of the tests and started with
 * `idpOptions` (a short access-token lifetime, refresh-token rotation); the client may use the
 * `refresh_token` grant, and has the further metadata in `client` (a `backchannel_logout_uri`).
 */
export function useInstancesAndIdp(
  env: () => Record<string, string>,
  idpOptions: Omit<Partial<DevIdpOptions>, "clients"> = {},
  client: Partial<DevIdpClient> = {},
): () => { instances: [Instance, Instance]; idp: DevIdp } {
  let idp: DevIdp | undefined
  let a: Instance | undefined
  let b: Instance | undefined
  beforeAll(async () => {
    idp = await startDevIdp({
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uris: [`${APP}/api/auth/callback/idp`],
          grant_types: ["authorization_code", "refresh_token"],
          ...client,
        },
      ],
      consent: "auto",
      ...idpOptions,
    })
    const all = instanceEnv(idp, env())
    ;[a, b] = await Promise.all([startInstance(all), startInstance(all)])
  }, scaled(60_000))
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)])
    await idp?.close()
  })
  return () => {
    if (!a || !b || !idp) throw new Error("the instances are only there inside tests")
    return { instances: [a, b], idp }
  }
}
