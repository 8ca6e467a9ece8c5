/**
 * One app instance for the scale-out test, run as its own Node process (`node --import tsx`):
 * `Auth()` with database sessions in PostgreSQL, served over HTTP on 127.0.0.1. It prints
 * `{"port":N}` once listening, and each error `Auth()` logs as an `auth-error` line. `GET
 * /app/token` answers `getAccessToken(request, config, "idp")` as JSON.
 *
 * Environment: DATABASE_URL, ISSUER (the dev IdP), CLIENT_ID, CLIENT_SECRET, AUTH_SECRET,
 * AUTH_URL (the public origin the load balancer serves, which every instance shares), and
 * optionally ADAPTER_MODULE: the path of a module whose default export makes the adapter from
 * the pool (Auth.js's adapters, from @portcullis/authjs-adapters-test); else `PostgresAdapter`.
 * SESSION_STRATEGY (`database`, the default, or `jwt`), BACKCHANNEL_LOGOUT=1 (the provider's
 * `backchannelLogout`) and REVOCATION_CHECK_INTERVAL (seconds, `session.revocationCheckInterval`)
 * set up the back-channel logout test; LEGACY_UNTIL (an ISO date) sets `legacySessionCookies.until`
 * for its sessions from before the switch from Auth.js. EMAIL_LINKS=1 adds an email provider (at
 * most 4 mails per address) that prints each link as a `mail-link <url>` line instead of sending it.
 * MFA=1 turns on second factors (`mfa: {}`): a user with a TOTP factor signs in through `/mfa/verify`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { pathToFileURL } from "node:url"
import { Auth, getAccessToken } from "@portcullis/core"
import type { Adapter } from "@portcullis/core/adapters"
import pg from "pg"
import { PostgresAdapter } from "../src/index.js"

function env(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`instance: ${name} is not set`)
  return value
}

const pool = new pg.Pool({ connectionString: env("DATABASE_URL"), max: 5 })
const adapterModule = process.env.ADAPTER_MODULE
const makeAdapter =
  adapterModule === undefined || adapterModule === ""
    ? PostgresAdapter
    : ((await import(pathToFileURL(adapterModule).href)) as { default: (pool: pg.Pool) => Adapter }).default
const interval = process.env.REVOCATION_CHECK_INTERVAL
const legacyUntil = process.env.LEGACY_UNTIL
const config = {
  secret: env("AUTH_SECRET"),
  ...(legacyUntil === undefined || legacyUntil === "" ? {} : { legacySessionCookies: { until: legacyUntil } }),
  trustHost: true,
  ...(process.env.MFA === "1" ? { mfa: {} } : {}),
  adapter: makeAdapter(pool),
  session: {
    strategy: process.env.SESSION_STRATEGY === "jwt" ? ("jwt" as const) : ("database" as const),
    ...(interval === undefined || interval === "" ? {} : { revocationCheckInterval: Number(interval) }),
  },
  providers: [
    {
      id: "idp",
      name: "Demo IdP",
      type: "oidc" as const,
      issuer: env("ISSUER"),
      clientId: env("CLIENT_ID"),
      clientSecret: env("CLIENT_SECRET"),
      checks: ["pkce" as const, "state" as const, "nonce" as const],
      allowInsecureLoopbackRequests: true,
      backchannelLogout: process.env.BACKCHANNEL_LOGOUT === "1",
    },
    ...(process.env.EMAIL_LINKS === "1"
      ? [
          {
            id: "email",
            name: "Email",
            type: "email" as const,
            sendVerificationRequest: ({ url }: { url: string }) => {
              console.log(`mail-link ${url}`)
            },
          },
        ]
      : []),
  ],
  rateLimit: { mailPerAddress: { limit: 4 } },
  logger: {
    error: (error: { code?: string; message: string; cause?: unknown }) => {
      console.log(`auth-error ${error.code ?? "?"}: ${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`)
    },
    warn: () => undefined,
  },
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value)
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item)
  }
  const method = req.method ?? "GET"
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`), {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks),
  })
}

/** `GET /app/token`: the app's own page that calls the provider's API, here answering the token it would use. */
async function token(request: Request): Promise<Response> {
  try {
    return Response.json(await getAccessToken(request, config, "idp"))
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string }
    return Response.json({ error: code ?? "?", message }, { status: 500 })
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = await toRequest(req)
  const response = new URL(request.url).pathname === "/app/token" ? await token(request) : await Auth(request, config)
  const cookies = response.headers.getSetCookie()
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  if (cookies.length > 0) res.setHeader("set-cookie", cookies)
  res.statusCode = response.status
  res.end(Buffer.from(await response.arrayBuffer()))
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.log(`instance-error ${String(error)}`)
    res.statusCode = 500
    res.end()
  })
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 }))
})
process.on("SIGTERM", () => {
  server.close()
  server.closeAllConnections()
  void pool.end().finally(() => process.exit(0))
})
