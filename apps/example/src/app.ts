/**
 * The example app: `createApp` builds the Hono app from options (no I/O), `startExample` starts
 * it with its Dev IdP on any ports, for `src/server.ts` and the tests alike.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

import { Auth, getAccessToken, type AuthConfig, type LoggerInstance, type SessionStrategy } from "@portcullis/core"
import { listSessions } from "@portcullis/core/sessions"
import type { DevIdp } from "@portcullis/dev-idp"
import { getRequestListener } from "@hono/node-server"
import { Hono } from "hono"
import Passkey from "@portcullis/providers/passkey"

import { AUTH_BASE_PATH, createAuthConfig } from "./auth.js"
import { bundleClientScript } from "./client-bundle.js"
import { openDatabase } from "./database.js"
import { DEMO_PROVIDER_ID, startDemoIdp } from "./demo-idp.js"
import { createDemoUserCheck, DEMO_USERNAME, demoUserProvider } from "./demo-user.js"
import { printMail, printSignInLink, selectEmailProvider, type EmailDelivery, type MailSink, type SignInLinkSink } from "./email.js"
import { FAVICON, pagePolicy, renderAccount, renderCheckEmail, renderDevices, renderHome, renderNotFound, renderNoToken, renderProtected, renderServerError, renderSettings, renderToken, STYLESHEET, type AccountView, type HomeView, type SessionStore, type SettingsView } from "./pages.js"
import { selectProviders, type ProviderStatus } from "./providers.js"
import { readAuthJson, readSession } from "./session.js"
import { readSessionStrategy, readVariable, resolveDemoPassword, resolveSecret, SettingsError, type Env } from "./settings.js"

/** Options of {@link createApp}. */
export interface AppOptions {
  auth: AuthConfig
  /** The strategy `auth` keeps sessions with, for the home page to say. */
  sessionStrategy: SessionStrategy
  /** The bundled browser script served as `/assets/client.js`. */
  clientScript: string
  /** The Dev IdP's issuer: linked from the home page, and allowed as an image source (avatars). */
  demoIdpUrl: string
  /** The optional providers the home page lists as on or off. */
  providers: ProviderStatus[]
  /** How sign-in links are delivered, for the home page. */
  emailDelivery: EmailDelivery
  /** Where database sessions live, for the home page. Default `"memory"`. */
  sessionStore?: SessionStore
  /** Where unexpected failures are reported. Default `console.error`. */
  onError?: (error: unknown) => void
  /** The address `Auth()` sent a sign-in link to while answering a request, named on "Check your email". */
  linkSentTo?: (request: Request) => string | undefined
}

/** The passkey provider's id (the `Passkey()` default), whose passkeys the account page lists. */
const PASSKEY_PROVIDER_ID = "passkey"

/** The cookie that carries the address a link went to, to the "check your email" page only. */
const LINK_SENT_TO = "example.link-sent-to"
const VERIFY_REQUEST_PATH = `${AUTH_BASE_PATH}/verify-request`

/** The address from the {@link LINK_SENT_TO} cookie: it comes from the request, so it is only shown escaped. */
function linkSentToCookie(request: Request): string | undefined {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, value] = pair.trim().split("=", 2)
    if (name !== LINK_SENT_TO || value === undefined || value.length > 1024) continue
    try {
      return decodeURIComponent(value)
    } catch {
      return undefined
    }
  }
  return undefined
}

/** Builds the app: `Auth()` under `/api/auth`, the pages, and the static assets. */
export function createApp(options: AppOptions): Hono {
  const { auth } = options
  const policy = pagePolicy([new URL(options.demoIdpUrl).origin])
  const onError =
    options.onError ??
    ((error: unknown) => {
      console.error(error)
    })

  const page = (body: string, status: number, setCookies: string[] = []): Response => {
    const headers = new Headers({
      "content-type": "text/html; charset=utf-8",
      // Pages show who is signed in: never stored by the browser or a proxy.
      "cache-control": "private, no-store",
      "content-security-policy": policy,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    })
    for (const cookie of setCookies) headers.append("set-cookie", cookie)
    return new Response(body, { status, headers })
  }
  const asset = (body: string, type: string): Response =>
    new Response(body, { headers: { "content-type": type, "cache-control": "no-cache", "x-content-type-options": "nosniff" } })

  const app = new Hono()
  // The app's own "check your email", which names the address and says where the link went when it was not emailed.
  app.get(VERIFY_REQUEST_PATH, (c) => page(renderCheckEmail(options.emailDelivery, linkSentToCookie(c.req.raw)), 200))
  app.all(`${AUTH_BASE_PATH}/*`, async (c) => {
    const response = await Auth(c.req.raw, auth)
    const address = options.linkSentTo?.(c.req.raw)
    if (address === undefined) return response
    const named = new Response(response.body, response)
    named.headers.append("set-cookie", `${LINK_SENT_TO}=${encodeURIComponent(address)}; Path=${VERIFY_REQUEST_PATH}; Max-Age=600; HttpOnly; SameSite=Lax`)
    return named
  })
  app.get("/assets/client.js", () => asset(options.clientScript, "text/javascript; charset=utf-8"))
  app.get("/assets/style.css", () => asset(STYLESHEET, "text/css; charset=utf-8"))
  app.get("/favicon.svg", () => asset(FAVICON, "image/svg+xml"))
  // Browsers ask for /favicon.ico on pages that link no icon (core's sign-in and sign-out pages).
  app.get("/favicon.ico", () => asset(FAVICON, "image/svg+xml"))
  app.get("/", async (c) => {
    const { session, setCookies } = await readSession(c.req.raw, auth)
    const view: HomeView = {
      session,
      sessionStrategy: options.sessionStrategy,
      demoIdpUrl: options.demoIdpUrl,
      providers: options.providers,
      emailDelivery: options.emailDelivery,
      sessionStore: options.sessionStore ?? "memory",
    }
    return page(renderHome(view), 200, setCookies)
  })
  app.get("/protected", async (c) => {
    const { session, setCookies } = await readSession(c.req.raw, auth)
    if (session === null) {
      const url = new URL(c.req.url)
      const signIn = `${AUTH_BASE_PATH}/signin?${new URLSearchParams({ callbackUrl: `${url.pathname}${url.search}` }).toString()}`
      const headers = new Headers({ location: signIn, "cache-control": "private, no-store" })
      for (const cookie of setCookies) headers.append("set-cookie", cookie)
      return new Response(null, { status: 302, headers })
    }
    return page(renderProtected(session), 200, setCookies)
  })
  // Two-step sign-in: whether the user has it, and the way to core's pages that turn it on or off.
  app.get("/settings", async (c) => {
    const { session, setCookies } = await readSession(c.req.raw, auth)
    const userId = session?.user?.id
    if (session === null || userId === undefined) {
      const headers = new Headers({ location: `${AUTH_BASE_PATH}/signin?callbackUrl=%2Fsettings`, "cache-control": "private, no-store" })
      for (const cookie of setCookies) headers.append("set-cookie", cookie)
      return new Response(null, { status: 302, headers })
    }
    const factors = (await auth.adapter?.listAuthFactors?.(userId)) ?? []
    const view: SettingsView = {
      session,
      authenticator: factors.some((factor) => factor.type === "totp" && factor.confirmedAt != null),
      backupCodes: factors.filter((factor) => factor.type === "backup").length,
    }
    return page(renderSettings(view), 200, setCookies)
  })
  // The user's signed-in devices, each of which the page can sign out (through core's POST /sessions/revoke).
  app.get("/devices", async (c) => {
    const setCookies: string[] = []
    const devices = await listSessions(c.req.raw, auth, (cookie) => setCookies.push(cookie))
    if (devices === null) {
      const signIn = `${AUTH_BASE_PATH}/signin?${new URLSearchParams({ callbackUrl: "/devices" }).toString()}`
      const headers = new Headers({ location: signIn, "cache-control": "private, no-store" })
      for (const cookie of setCookies) headers.append("set-cookie", cookie)
      return new Response(null, { status: 302, headers })
    }
    return page(renderDevices(devices), 200, setCookies)
  })
  // Everything about the signed-in user in one place, each part read from core as a browser would.
  app.get("/account", async (c) => {
    const request = c.req.raw
    const setCookies: string[] = []
    const devices = await listSessions(request, auth, (cookie) => setCookies.push(cookie))
    const { session } = await readSession(request, auth)
    const userId = session?.user?.id
    if (devices === null || session === null || userId === undefined) {
      const headers = new Headers({ location: `${AUTH_BASE_PATH}/signin?callbackUrl=%2Faccount`, "cache-control": "private, no-store" })
      for (const cookie of setCookies) headers.append("set-cookie", cookie)
      return new Response(null, { status: 302, headers })
    }
    const providers = (await readAuthJson(request, auth, "/providers")).body as Record<string, { id: string; name: string; type: string }>
    const [linked, passkeys, factors] = await Promise.all([
      readAuthJson(request, auth, "/accounts").then(({ body }) => body as { accounts: Omit<AccountView["accounts"][number], "name">[] }),
      PASSKEY_PROVIDER_ID in providers ? readAuthJson(request, auth, `/webauthn-credentials/${PASSKEY_PROVIDER_ID}`).then(({ body }) => body as { passkeys: AccountView["passkeys"] }) : undefined,
      auth.adapter?.listAuthFactors?.(userId) ?? [],
    ])
    const nameOf = (id: string) => providers[id]?.name ?? id
    const accounts = linked.accounts.map((account) => ({ ...account, name: nameOf(account.provider) }))
    const view: AccountView = {
      session,
      devices,
      accounts,
      linkable: Object.values(providers)
        .filter((provider) => (provider.type === "oauth" || provider.type === "oidc") && !accounts.some((account) => account.provider === provider.id))
        .map(({ id, name }) => ({ id, name })),
      passkeys: passkeys?.passkeys,
      twoStep: {
        authenticator: factors.some((factor) => factor.type === "totp" && factor.confirmedAt != null),
        backupCodes: factors.filter((factor) => factor.type === "backup").length,
      },
    }
    return page(renderAccount(view), 200, setCookies)
  })
  // The signed-in user's access token at the Dev IdP, refreshed by core when it is due.
  app.get("/token", async (c) => {
    const setCookies: string[] = []
    const token = await getAccessToken(c.req.raw, auth, DEMO_PROVIDER_ID, (cookie) => setCookies.push(cookie))
    if (token === null) {
      // Signed in another way: the page says why it has no token, rather than a silent trip to sign-in.
      if ((await readSession(c.req.raw, auth)).session !== null) return page(renderNoToken(), 200, setCookies)
      const signIn = `${AUTH_BASE_PATH}/signin?${new URLSearchParams({ callbackUrl: "/token" }).toString()}`
      return new Response(null, { status: 302, headers: { location: signIn, "cache-control": "private, no-store" } })
    }
    return page(renderToken(token), 200, setCookies)
  })
  app.notFound((c) => page(renderNotFound(new URL(c.req.url).pathname), 404))
  app.onError((error) => {
    onError(error)
    // Whatever failed (the store, a callback) is on the server side: try again later, not a crash page.
    return page(renderServerError(), 503)
  })
  return app
}

/** Options of {@link startExample}. */
export interface ExampleOptions {
  /** Where settings are read from (`AUTH_SECRET`, `AUTH_SESSION_STRATEGY`, `DATABASE_URL`, `AUTH_<ID>_ID`...). */
  env: Env
  /** The app's port. Default 3000; `0` takes a free one. */
  port?: number
  /** The port the Dev IdP tries first. Default 4400, as `npx @portcullis/dev-idp`; `0` takes a free one. */
  idpPort?: number
  /** Seconds a Dev IdP access token lives. Default 5 minutes. */
  idpAccessTokenTtl?: number
  /** Where start-up warnings go. Default `console.warn`. */
  warn?: (message: string) => void
  /** Passed to `Auth()` as `logger`. Default: core's console logger. */
  authLogger?: Partial<LoggerInstance>
  /** Where unexpected failures of the pages are reported. Default `console.error`. */
  onError?: (error: unknown) => void
  /**
   * Where sign-in links go when no SMTP server is set (`AUTH_EMAIL_SERVER`, `AUTH_EMAIL_FROM`).
   * Default: printed to the terminal. Tests read the links here.
   */
  sendSignInLink?: SignInLinkSink
  /**
   * Where core's other mails (a notice after a change to how you sign in, the link that confirms
   * a new address) go when no SMTP server is set. Default: printed to the terminal.
   */
  sendMail?: MailSink
}

/** A started example. */
export interface RunningExample {
  /** The app's URL, e.g. `http://localhost:3000`. */
  url: string
  idp: DevIdp
  /** The demo user's credentials; `passwordGenerated` when the password was made up at start (no `DEMO_USER_PASSWORD`). */
  demoUser: { username: string; password: string; passwordGenerated: boolean }
  /** How sign-in links are delivered. */
  emailDelivery: EmailDelivery
  /** Stops the app and the Dev IdP, and closes the database. */
  close(): Promise<void>
}

/** The app's host: the URL people open, and one site for cookies. */
const HOSTNAME = "localhost"

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new SettingsError(`Port ${port} on ${HOSTNAME} is already in use: stop what runs there, or choose another port (PORT=3001 pnpm dev).`)
          : error,
      )
    }
    server.once("error", onError)
    server.listen(port, HOSTNAME, () => {
      server.off("error", onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => {
      resolve()
    })
    server.closeAllConnections()
  })
}

/**
 * Starts the app and its Dev IdP: reads the settings, listens, starts the IdP with the app's
 * callback URL registered, then serves.
 *
 * @throws {SettingsError} for an unusable setting or a taken app port, naming what to change.
 */
export async function startExample(options: ExampleOptions): Promise<RunningExample> {
  const warn =
    options.warn ??
    ((message: string) => {
      console.warn(message)
    })
  const { secret, warning } = resolveSecret(options.env)
  const sessionStrategy = readSessionStrategy(options.env)
  const selection = selectProviders(options.env)
  const demoPassword = resolveDemoPassword(options.env)
  const email = selectEmailProvider(options.env, options.sendSignInLink ?? printSignInLink)
  if (warning !== undefined) warn(warning)
  selection.warnings.forEach(warn)
  email.warnings.forEach(warn)
  const clientScript = await bundleClientScript()
  // Before listening: a database that cannot be used stops the start with one clear line.
  const database = await openDatabase(options.env)

  // The port must be known before the IdP starts (it registers the callback URL), so the
  // server listens first and serves once the app exists.
  let handle = (_request: Request): Response | Promise<Response> => new Response("Starting, try again in a moment.", { status: 503 })
  const listener = getRequestListener((request) => handle(request), {
    // Keep the platform's own Request and Response: Auth() builds and reads those.
    overrideGlobalObjects: false,
  })
  const server = createServer((incoming, outgoing) => {
    void listener(incoming, outgoing)
  })
  let port: number
  try {
    port = await listen(server, options.port ?? 3000)
  } catch (error) {
    await database?.close()
    throw error
  }
  const url = `http://${HOSTNAME}:${port}`

  let demo: Awaited<ReturnType<typeof startDemoIdp>>
  try {
    // Both names of the loopback host, so opening http://127.0.0.1:<port> also signs in.
    demo = await startDemoIdp({
      port: options.idpPort ?? 4400,
      appOrigins: [url, `http://127.0.0.1:${port}`],
      ...(options.idpAccessTokenTtl === undefined ? {} : { accessTokenTtl: options.idpAccessTokenTtl }),
    })
  } catch (error) {
    await Promise.all([closeServer(server), database?.close()])
    throw error
  }
  if (demo.warning !== undefined) warn(demo.warning)

  const config = createAuthConfig({
    providers: [
      demo.provider,
      ...selection.providers,
      ...(email.provider === undefined ? [] : [email.provider]),
      // Passkeys need nothing set up: they live in the adapter (memory, or PostgreSQL with DATABASE_URL).
      // Its own label: the address is only for a new passkey (core's hint under it says so), and the email form above has "Email".
      Passkey({ formFields: { email: { label: "Email for a new passkey", required: true, autocomplete: "username webauthn" } } }),
      demoUserProvider(createDemoUserCheck(demoPassword.password, database?.demoUser)),
    ],
    secret,
    sessionStrategy,
    ...(database === undefined ? {} : { adapter: database.adapter }),
    // AUTH_URL when deployed behind a proxy; the address it listens on otherwise.
    url: readVariable(options.env, "AUTH_URL") ?? url,
    allowedOrigins: [`http://127.0.0.1:${port}`],
    ...(options.authLogger === undefined ? {} : { logger: options.authLogger }),
    // With SMTP, core sends them through the email provider's transport.
    ...(email.delivery === "terminal" ? { mail: options.sendMail ?? printMail } : {}),
  })
  const app = createApp({
    auth: config,
    sessionStrategy,
    clientScript,
    demoIdpUrl: demo.idp.issuer,
    providers: selection.status,
    emailDelivery: email.delivery,
    sessionStore: database === undefined ? "memory" : "postgres",
    linkSentTo: email.linkSentTo,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  })
  handle = (request) => app.fetch(request)

  let closing: Promise<void> | undefined
  return {
    url,
    idp: demo.idp,
    demoUser: { username: DEMO_USERNAME, password: demoPassword.password, passwordGenerated: demoPassword.generated },
    emailDelivery: email.delivery,
    close() {
      closing ??= Promise.all([closeServer(server), demo.idp.close()]).then(() => database?.close())
      return closing
    },
  }
}
