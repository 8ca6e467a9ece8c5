/**
 * A real Express app on 127.0.0.1, written the way Auth.js's `@auth/express` docs show (body
 * parsers first, `ExpressAuth` on a wildcard mount, `getSession` in routes), and a real
 * OpenID Provider (@portcullis/dev-idp) that knows the app's callback URL.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import express5 from "express"
import express4 from "express4"
import { ExpressAuth, getAccessToken, getSession, listSessions, requireRecentAuth, revokeSessions, type ExpressAuthConfig } from "../src/index.js"

export const SECRET = "an-express-test-secret-of-at-least-32-chars"
const CLIENT = { id: "express-e2e", secret: "express-e2e-client-secret" }

export type ExpressVersion = 4 | 5

/** The wildcard mounts each Express version understands, as its docs spell them. */
export const MOUNTS: Record<ExpressVersion, string[]> = { 4: ["/auth/*"], 5: ["/auth/{*splat}", "/auth/*splat"] }

export interface AppOptions {
  version: ExpressVersion
  mount?: string
  /** Express's `trust proxy` setting; unset leaves Express's default (trust nothing). */
  trustProxy?: boolean | string
  config?: Partial<ExpressAuthConfig>
  /** Registers the handler with `app.all` (a route) instead of `app.use` (a mount). */
  route?: boolean
  /** Mounts `express.json()` and `express.urlencoded()` before the auth routes. Defaults to `true`. */
  bodyParsers?: boolean
}

export interface RunningApp {
  /** `http://127.0.0.1:<port>` */
  url: string
  idp: DevIdp
  /** Errors the auth logger received, as `code: message`. */
  errors: string[]
  close(): Promise<void>
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

/** Starts the app and its OpenID Provider; `close()` stops both. */
export async function startApp(options: AppOptions): Promise<RunningApp> {
  const server = createServer()
  const port = await listen(server)
  const url = `http://127.0.0.1:${port}`
  const idp = await startDevIdp({
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${url}/auth/callback/idp`] }],
    consent: "auto",
  })
  const errors: string[] = []
  const authConfig: ExpressAuthConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [
      {
        id: "idp",
        name: "Demo IdP",
        type: "oidc",
        issuer: idp.issuer,
        clientId: CLIENT.id,
        clientSecret: CLIENT.secret,
        checks: ["pkce", "state", "nonce"],
        allowInsecureLoopbackRequests: true,
      },
    ],
    logger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    ...options.config,
  }

  const express = options.version === 4 ? express4 : express5
  const app = express()
  if (options.trustProxy !== undefined) app.set("trust proxy", options.trustProxy)
  if (options.bodyParsers !== false) {
    app.use(express.json())
    app.use(express.urlencoded({ extended: true }))
  }
  // A cookie of the app's own, set before the auth routes run: theirs must not replace it.
  app.use((_req, res, next) => {
    res.cookie("app-visit", "1")
    next()
  })
  const mount = options.mount ?? MOUNTS[options.version][0] ?? "/auth/*"
  if (options.route === true) app.all(mount, ExpressAuth(authConfig))
  else app.use(mount, ExpressAuth(authConfig))
  app.get("/me", async (req, res, next) => {
    try {
      res.json({ session: await getSession(req, authConfig) })
    } catch (error) {
      next(error)
    }
  })
  // A sensitive page of the app's own: only after a recent authentication. The URLs it answers
  // are under the config's basePath: the mount's, here.
  const mounted = { ...authConfig, basePath: "/auth" }
  app.get("/recent", async (req, res, next) => {
    try {
      res.json(await requireRecentAuth(req, mounted))
    } catch (error) {
      next(error)
    }
  })
  app.get("/token", async (req, res, next) => {
    try {
      res.json({ token: await getAccessToken(req, authConfig, "idp") })
    } catch (error) {
      next(error)
    }
  })
  app.get("/devices", async (req, res, next) => {
    try {
      res.json({ sessions: await listSessions(req, authConfig) })
    } catch (error) {
      next(error)
    }
  })
  // An app's own form, behind its own CSRF protection (none here: a test app).
  app.post("/devices/others", async (req, res, next) => {
    try {
      res.json(await revokeSessions(req, authConfig, { others: true }))
    } catch (error) {
      next(error)
    }
  })
  app.get("/", async (req, res) => {
    const session = await getSession(req, authConfig)
    res.type("html").send(
      session === null
        ? `<p id="status">Signed out</p><a href="/auth/signin">Sign in</a>`
        : `<p id="status">Signed in as ${String(session.user?.email)}</p>`,
    )
  })
  server.on("request", app)
  return {
    url,
    idp,
    errors,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await idp.close()
    },
  }
}
