/**
 * The `npx @portcullis/dev-idp` command: a dev IdP for one app, started from the command line,
 * that prints the provider configuration to paste into the app.
 *
 * @module
 */
import { parseArgs } from "node:util"

import { startDevIdp, type DevIdp } from "./index.js"

/** The provider id the printed configuration uses; the app's callback URLs end with it. */
export const PROVIDER_ID = "dev-idp"
/** The port the command listens on unless `--port` says otherwise: fixed, so the printed issuer stays valid across restarts. */
export const DEFAULT_PORT = 4400
const DEFAULT_APP_URLS = ["http://localhost:3000", "http://127.0.0.1:3000"]
const DEFAULT_CLIENT = { id: "dev-app", secret: "dev-app-secret" }

export const USAGE = `Usage: npx @portcullis/dev-idp [options]

A local OpenID Provider for developing an app with @portcullis/core: it listens on 127.0.0.1
only, with demo users, and prints the provider configuration to paste into your app.

Options:
  --port <port>           the port on 127.0.0.1 (default ${String(DEFAULT_PORT)}; 0 takes a free one)
  --app-url <origin>      your app's AUTH_URL; repeat for several (default ${DEFAULT_APP_URLS.join(" and ")})
  --base-path <path>      where the app serves the auth routes (default /api/auth)
  --redirect-uri <url>    an exact callback URL to accept instead; repeat for several
  --post-logout-redirect-uri <url>
                          an exact URL to return to after signing out instead of
                          {app-url}{base-path}/signout/callback/${PROVIDER_ID}; repeat for several
  --backchannel-logout-uri <url>
                          where to POST logout tokens instead of
                          {first app-url}{base-path}/backchannel-logout/${PROVIDER_ID}
  --no-backchannel-logout send no logout tokens
  --client-id <id>        default ${DEFAULT_CLIENT.id}
  --client-secret <text>  default ${DEFAULT_CLIENT.secret}
  --consent <mode>        "prompt" (an Allow / Deny page after login, the default) or "auto"
  --logout-confirmation <mode>
                          "prompt" (a Sign out? page at the end-session endpoint, the default)
                          or "auto" (sign out at once when the app sends id_token_hint)
  -h, --help              this text
`

/** A command-line mistake: the message says what to change. */
export class UsageError extends Error {
  override name = "UsageError"
}

/** What the command was asked for, with defaults applied. */
export interface CommandOptions {
  port: number
  redirectUris: string[]
  postLogoutRedirectUris: string[]
  /** `undefined` with `--no-backchannel-logout`. */
  backchannelLogoutUri: string | undefined
  clientId: string
  clientSecret: string
  consent: "prompt" | "auto"
  logoutConfirmation: "prompt" | "auto"
}

/**
 * Reads the command line.
 *
 * @returns `"help"` for `--help`, else the options.
 * @throws {UsageError} naming the option that is unknown or invalid.
 */
export function readCommandLine(args: readonly string[]): CommandOptions | "help" {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        "app-url": { type: "string", multiple: true },
        "base-path": { type: "string" },
        "redirect-uri": { type: "string", multiple: true },
        "post-logout-redirect-uri": { type: "string", multiple: true },
        "backchannel-logout-uri": { type: "string" },
        "no-backchannel-logout": { type: "boolean" },
        "logout-confirmation": { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        consent: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }))
  } catch (cause) {
    throw new UsageError(cause instanceof Error ? cause.message : String(cause), { cause })
  }
  if (values.help === true) return "help"
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port)
  if (!/^\d+$/.test(values.port ?? "0") || port > 65_535) throw new UsageError(`--port must be a number from 0 to 65535, got ${String(values.port)}`)
  const basePath = (values["base-path"] ?? "/api/auth").replace(/\/+$/, "")
  if (!basePath.startsWith("/")) throw new UsageError(`--base-path must start with /, got ${basePath}`)
  const origins = (values["app-url"] ?? DEFAULT_APP_URLS).map((appUrl) => {
    try {
      return new URL(appUrl).origin
    } catch (cause) {
      throw new UsageError(`--app-url must be a URL such as http://localhost:3000, got ${appUrl}`, { cause })
    }
  })
  const appRoutes = (route: string) => origins.map((origin) => `${origin}${basePath}/${route}/${PROVIDER_ID}`)
  const redirectUris = values["redirect-uri"] ?? appRoutes("callback")
  const postLogoutRedirectUris = values["post-logout-redirect-uri"] ?? appRoutes("signout/callback")
  if (values["no-backchannel-logout"] === true && values["backchannel-logout-uri"] !== undefined) {
    throw new UsageError("--backchannel-logout-uri and --no-backchannel-logout exclude each other")
  }
  const backchannelLogoutUri = values["no-backchannel-logout"] === true ? undefined : (values["backchannel-logout-uri"] ?? appRoutes("backchannel-logout")[0])
  for (const [option, uris] of [
    ["--redirect-uri", redirectUris],
    ["--post-logout-redirect-uri", postLogoutRedirectUris],
    ["--backchannel-logout-uri", backchannelLogoutUri === undefined ? [] : [backchannelLogoutUri]],
  ] as const) {
    for (const uri of uris) {
      if (!URL.canParse(uri)) throw new UsageError(`${option} must be an absolute URL, got ${uri}`)
    }
  }
  const consent = values.consent ?? "prompt"
  if (consent !== "prompt" && consent !== "auto") throw new UsageError(`--consent must be "prompt" or "auto", got ${consent}`)
  const logoutConfirmation = values["logout-confirmation"] ?? "prompt"
  if (logoutConfirmation !== "prompt" && logoutConfirmation !== "auto") {
    throw new UsageError(`--logout-confirmation must be "prompt" or "auto", got ${logoutConfirmation}`)
  }
  const clientId = values["client-id"] ?? DEFAULT_CLIENT.id
  const clientSecret = values["client-secret"] ?? DEFAULT_CLIENT.secret
  if (clientId === "" || clientSecret === "") throw new UsageError("--client-id and --client-secret must not be empty")
  return { port, redirectUris, postLogoutRedirectUris, backchannelLogoutUri, clientId, clientSecret, consent, logoutConfirmation }
}

/** The provider object an app adds to its `providers`, as TypeScript source. */
export function providerSnippet(issuer: string, options: Pick<CommandOptions, "clientId" | "clientSecret">): string {
  return [
    "{",
    `  id: "${PROVIDER_ID}",`,
    `  name: "Dev IdP",`,
    `  type: "oidc",`,
    `  issuer: ${JSON.stringify(issuer)},`,
    `  clientId: ${JSON.stringify(options.clientId)},`,
    `  clientSecret: ${JSON.stringify(options.clientSecret)},`,
    "  allowInsecureLoopbackRequests: true, // its issuer is plain http on 127.0.0.1",
    "}",
  ].join("\n")
}

/** What the command prints once the IdP listens. */
export function startupMessage(idp: Pick<DevIdp, "issuer" | "accounts">, options: CommandOptions): string {
  const indent = (text: string) => text.replace(/^/gm, "  ")
  const users = idp.accounts.map((account) => `${account.email} / ${account.password}${account.email_verified ? "" : " (email not verified)"}`)
  const env = `AUTH_DEV_IDP_ISSUER=${idp.issuer}\nAUTH_DEV_IDP_ID=${options.clientId}\nAUTH_DEV_IDP_SECRET=${options.clientSecret}`
  return [
    `Dev IdP listening on ${idp.issuer} (a local OpenID Provider, for development only)`,
    "",
    `Demo users: ${users.join(", ")}`,
    `Callback URLs it accepts: ${options.redirectUris.join(", ")}`,
    `Sign-out return URLs it accepts (post_logout_redirect_uri): ${options.postLogoutRedirectUris.join(", ")}`,
    `Back-channel logout tokens go to: ${options.backchannelLogoutUri ?? "nowhere (--no-backchannel-logout)"}`,
    `End session at ${idp.issuer}/session/end, revoke tokens at ${idp.issuer}/token/revocation`,
    "",
    "Add this provider to your config's providers:",
    "",
    indent(providerSnippet(idp.issuer, options)),
    "",
    `or keep { id: "${PROVIDER_ID}", name: "Dev IdP", type: "oidc", allowInsecureLoopbackRequests: true } and put the rest in .env:`,
    "",
    indent(env),
    "",
    "Stop it with Ctrl+C.",
    "",
  ].join("\n")
}

/**
 * Starts the dev IdP the command line asks for and prints how to use it.
 *
 * @throws {UsageError} for a mistake on the command line.
 * @throws Error when the port is taken (`EADDRINUSE`).
 */
export async function runCommand(options: CommandOptions, print: (text: string) => void): Promise<DevIdp> {
  const idp = await startDevIdp({
    port: options.port,
    consent: options.consent,
    logoutConfirmation: options.logoutConfirmation,
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        client_name: "your app",
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
        ...(options.backchannelLogoutUri === undefined ? {} : { backchannel_logout_uri: options.backchannelLogoutUri }),
        grant_types: ["authorization_code", "refresh_token"],
      },
    ],
  })
  print(startupMessage(idp, options))
  return idp
}
