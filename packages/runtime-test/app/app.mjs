// The app every runtime serves: core, three providers from @portcullis/providers and the memory
// adapter, imported from node_modules as an app would. The same sign-ins run under a JWT session
// (/api/auth) and a database session (/db/auth), each with its own store, through
// @portcullis/hono's middleware (/hono, a JWT session), with a second factor (/totp/auth, a
// JWT session under `mfa`), and with password accounts (/password/auth, Password() over the memory
// adapter, its one user's hash made by the driver on Node.js). Routes under /test/
// exist for the driver only: the last link mailed to an address, the provider's access token,
// the runtime's clock, the timers a response left behind, which runtime this is, and a password
// hashed and verified here.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, getAccessToken, getSession } from "@portcullis/core"
import { hashPassword, verifyPassword } from "@portcullis/core/password"
import { authHandler, initAuthConfig, verifyAuth } from "@portcullis/hono"
import Credentials from "@portcullis/providers/credentials"
import Email from "@portcullis/providers/email"
import Keycloak from "@portcullis/providers/keycloak"
import Password from "@portcullis/providers/password"
import { Hono } from "hono"

/** What the driver passes: as environment variables, or a worker's bindings. */
/** @typedef {{ IDP_ISSUER: string, IDP_CLIENT_ID: string, IDP_CLIENT_SECRET: string, PASSWORD_HASH: string, AUTH_SECRET?: string, AUTH_URL?: string }} AppEnv */

/** Carol's password (test/sign-in.ts signs in with it). */
const PASSWORD = "a runtime test password"

/** A timer the runtime sets for itself (Node's fetch keeps its connections with timers of its own). */
const RUNTIME_FRAME = /node:internal|\bext:|\[native code\]/u

/**
 * Keeps the timers set and not yet fired or cleared, the runtime's own aside. A runtime is free to
 * drop those pending after the response (workerd runs nothing then), so core must never leave one.
 */
function trackTimers() {
  const pending = new Set()
  const { setTimeout: set, clearTimeout: clear } = globalThis
  globalThis.setTimeout = (callback, ms, ...args) => {
    const id = set(
      (...given) => {
        pending.delete(id)
        callback(...given)
      },
      ms,
      ...args,
    )
    // The stack's third line is the caller: the first is the message, the second this function.
    const caller = new Error("timer").stack?.split("\n")[2] ?? ""
    if (!RUNTIME_FRAME.test(caller)) pending.add(id)
    return id
  }
  globalThis.clearTimeout = (id) => {
    pending.delete(id)
    clear(id)
  }
  return pending
}

/** Which runtime serves the app, and its version where it tells it. */
function runtimeInfo() {
  if (globalThis.Bun !== undefined) return { name: "bun", version: Bun.version }
  if (globalThis.Deno !== undefined) return { name: "deno", version: Deno.version.deno }
  if (globalThis.navigator?.userAgent === "Cloudflare-Workers") return { name: "workerd", version: null }
  return { name: "node", version: process.versions.node }
}

/**
 * The app's request handler.
 *
 * @param {AppEnv} env
 * @param {{ envRead: boolean }} options `envRead`: the runtime has `process.env` and core reads
 *   `AUTH_SECRET` and `AUTH_URL` from it; otherwise (a worker) the config names them.
 * @returns {(request: Request) => Promise<Response>}
 */
export function createApp(env, { envRead }) {
  const pendingTimers = trackTimers()
  const leftTimers = []
  const mailbox = new Map()
  const users = new Map([["carol", { id: "carol", name: "Carol", email: "carol@example.com" }]])
  const fromConfig = envRead ? {} : { secret: env.AUTH_SECRET, url: env.AUTH_URL }

  /**
   * @param {string} basePath @param {"jwt" | "database"} strategy
   * @param {Partial<import("@portcullis/core").AuthConfig>} [extra] options only this app has
   * @returns {import("@portcullis/core").AuthConfig}
   */
  const configFor = (basePath, strategy, extra = {}) => ({
    ...fromConfig,
    ...extra,
    basePath,
    adapter: MemoryAdapter(),
    session: { strategy },
    providers: [
      Keycloak({ id: "idp", issuer: env.IDP_ISSUER, clientId: env.IDP_CLIENT_ID, clientSecret: env.IDP_CLIENT_SECRET, allowInsecureLoopbackRequests: true }),
      Email({
        // The JWT app's links expire after a second: the driver waits that out to see the clock
        // move between requests (workerd's moves only on I/O).
        maxAge: strategy === "jwt" ? 1 : 600,
        sendVerificationRequest: ({ identifier, url }) => {
          mailbox.set(identifier, url)
        },
      }),
      ...(strategy === "jwt"
        ? [
            Credentials({
              credentials: { username: {}, password: { type: "password" } },
              authorize: ({ username, password }) => (password === PASSWORD ? (users.get(String(username)) ?? null) : null),
            }),
          ]
        : []),
    ],
  })
  const configs = {
    jwt: configFor("/api/auth", "jwt"),
    database: configFor("/db/auth", "database"),
    hono: configFor("/hono/auth", "jwt"),
    // Second factors in a store of their own, so that the other sign-ins pass no gate. Notices of
    // an enrolment go nowhere: the driver does not read them.
    totp: configFor("/totp/auth", "jwt", { mfa: { factors: ["totp"] }, mail: { send: () => undefined } }),
    // Dave's hash is the PHC string the driver made on Node.js: the runtime verifies it as stored.
    password: {
      ...fromConfig,
      basePath: "/password/auth",
      adapter: MemoryAdapter({
        users: [{ id: "dave", name: "Dave", email: "dave@example.com", emailVerified: new Date(0) }],
        passwordHashes: [{ userId: "dave", hash: env.PASSWORD_HASH }],
      }),
      providers: [Password()],
      mail: { send: () => undefined },
    },
  }

  const hono = new Hono()
  hono.use(initAuthConfig(configs.hono))
  hono.use("/hono/auth/*", authHandler())
  hono.use("/hono/me", verifyAuth())
  hono.get("/hono/me", (c) => c.json(c.var.authUser.session))

  /** @param {Request} request */
  const route = async (request) => {
    const url = new URL(request.url)
    const { pathname, searchParams } = url
    if (pathname.startsWith("/api/auth/")) return Auth(request, configs.jwt)
    if (pathname.startsWith("/db/auth/")) return Auth(request, configs.database)
    if (pathname.startsWith("/totp/auth/")) return Auth(request, configs.totp)
    if (pathname.startsWith("/password/auth/")) return Auth(request, configs.password)
    if (pathname.startsWith("/hono/")) return hono.fetch(request)
    const config = searchParams.get("session") === "database" ? configs.database : configs.jwt
    if (pathname === "/test/session") return Response.json(await getSession(request, config))
    if (pathname === "/test/access-token") return Response.json(await getAccessToken(request, config, "idp"))
    if (pathname === "/test/mail") return Response.json({ url: mailbox.get(searchParams.get("to")) ?? null })
    if (pathname === "/test/timers") return Response.json({ left: leftTimers })
    if (pathname === "/test/runtime") return Response.json(runtimeInfo())
    if (pathname === "/test/password" && request.method === "POST") {
      const { password } = await request.json()
      const hash = await hashPassword(password)
      return Response.json({ hash, right: await verifyPassword(hash, password), wrong: await verifyPassword(hash, `${password}!`) })
    }
    if (pathname === "/test/clock") {
      // Burns CPU without I/O (counted: on workerd performance.now() stands still too), then does
      // I/O: on workerd only the second moves the clock.
      const before = Date.now()
      let sum = 0
      for (let i = 0; i < 30_000_000; i++) sum += i % 7
      const afterCpu = Date.now()
      await (await fetch(new URL("/.well-known/openid-configuration", env.IDP_ISSUER))).arrayBuffer()
      return Response.json({ cpuMovedClock: afterCpu > before, ioMovedClock: Date.now() > before, sum })
    }
    return new Response(`<p>app page ${pathname}</p>`, { headers: { "content-type": "text/html" } })
  }

  // Timers still pending once no request is in flight are left behind: checked then, so the
  // timers of requests served at the same time do not count against each other.
  let inFlight = 0
  return async (request) => {
    inFlight++
    try {
      return await route(request)
    } finally {
      inFlight--
      const { pathname } = new URL(request.url)
      if (inFlight === 0 && pendingTimers.size > 0) {
        leftTimers.push(`${request.method} ${pathname}: ${String(pendingTimers.size)}`)
        pendingTimers.clear()
      }
    }
  }
}
