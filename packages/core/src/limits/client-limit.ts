/**
 * The per-client limits (`rateLimit.perClient`): each client address (an IPv6 client by its /64)
 * gets an allowance per route group (sign-in starts, callbacks, passkey options, session
 * updates) per window; over it the request is answered `429` with `Retry-After` before any route
 * runs. Loaded by `client-limit-gate.ts` only when an address can be known.
 */
import { clientAddressOf } from "./client-address-of.js"
import { recordedClientAddress } from "./client-address-tag.js"
import { CLIENT_DEFAULTS, type ClientRule } from "./client-limit-rules.js"
import type { RequestContext } from "../internal.js"
import { rateLimitsOf, targetKey } from "./rate-limit.js"
import type { Route } from "../http/routes.js"
import { isLoopbackHost } from "../http/loopback.js"

/** The rules of the POST routes under `/mfa` that count. */
const MFA_RULES: Readonly<Partial<Record<string, ClientRule>>> = { verify: "callback", email: "signIn", "passkey/register": "callback", "passkey/options": "passkeyOptions" }

/** The rule that counts this request, if any: routes a script floods to make us (or a provider, or an inbox) work. */
function ruleOf(context: RequestContext, route: Route): ClientRule | undefined {
  const { config, request } = context
  const post = request.method === "POST"
  switch (route.action) {
    case "signin":
      return post && route.providerId !== undefined ? "signIn" : undefined
    case "callback":
      return "callback"
    // A second factor's code completes a sign-in as a provider's callback does; mailing one is a sign-in mail;
    // a pending sign-in's passkey registration and its options count as a passkey's.
    case "mfa":
      return post && route.providerId !== undefined && Object.hasOwn(MFA_RULES, route.providerId) ? MFA_RULES[route.providerId] : undefined
    case "session":
      return post ? "sessionUpdate" : undefined
    case "flow":
      return config.providersById.get(route.providerId ?? "")?.flow.routes?.[route.flowRoute ?? ""]?.clientLimit
    // Password accounts' sign-up, reset and change, as their flow declares them (a page's GET counts against none).
    case "password":
      return post ? config.providers.find((provider) => provider.flow.actionRoutes?.action === "password")?.flow.actionRoutes?.routes[route.providerId ?? ""]?.clientLimit : undefined
    // A re-authentication's start (a password checked, a provider or a mail sent to) counts as a sign-in's; a passkey's options as theirs.
    case "reauth":
      return route.providerId === undefined ? undefined : post ? "signIn" : "passkeyOptions"
    // An email change's request sends a mail, as a sign-in start does; its link's post uses a token, as a callback does.
    case "account":
      return !post ? undefined : route.providerId === "email" ? "signIn" : route.providerId === "email/confirm" ? "callback" : undefined
    default:
      return undefined
  }
}

/**
 * `429` with the seconds until the window ends: JSON for scripts, a short page (no script, no
 * framing) for a browser's navigation. Built here rather than with the routes' answer helpers, so
 * this chunk shares no module with `Auth()`'s entry it does not need (each shared one splits an
 * app bundler's chunks further, which the OAuth-only bundle pays for).
 */
function tooMany(request: Request, resetAt: Date): Response {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000))
  const message = `Too many requests from this client: try again in ${String(seconds)} seconds.`
  const headers = new Headers({ "cache-control": "private, no-cache, no-store", "retry-after": String(seconds) })
  if (!(request.headers.get("accept") ?? "").includes("text/html")) {
    headers.set("content-type", "application/json")
    return new Response(JSON.stringify({ error: "TooManyRequests", message }), { status: 429, headers })
  }
  headers.set("content-type", "text/html; charset=utf-8")
  headers.set("content-security-policy", "default-src 'none'; frame-ancestors 'none'")
  headers.set("x-frame-options", "DENY")
  return new Response(`<!doctype html><meta charset="utf-8"><title>Too many requests</title><p>${message}</p>`, { status: 429, headers })
}

/**
 * Counts the request in its client's window and answers `429` once the client is over the
 * rule's limit. Without an address source it warns once per configuration (recorded in `warned`)
 * and lets the request through: one shared counter would let one client lock everyone out. The
 * warning waits while the app runs in development on loopback, where no proxy is to be named.
 *
 * @throws {Configuration} when the app's `clientAddress` hook throws.
 */
export async function countClient(context: RequestContext, route: Route, warned: WeakSet<object>): Promise<Response | undefined> {
  const { config } = context
  const limits = rateLimitsOf(config)
  const rule = ruleOf(context, route)
  if (limits === undefined || limits.perClient === false || rule === undefined) return undefined
  const window = limits.perClient?.[rule] ?? CLIENT_DEFAULTS[rule]
  if (window === false) return undefined
  if (config.clientAddress === undefined && recordedClientAddress(context.request) === undefined) {
    // An app in development on this machine has no proxy to name, and nothing to change yet.
    if (!config.production && isLoopbackHost(context.url.hostname)) return undefined
    if (config.rateLimit !== undefined && !warned.has(config.rateLimit)) {
      warned.add(config.rateLimit)
      config.logger.warn(
        "ClientAddressUnknown",
        "The per-client limits (`rateLimit.perClient`) are off: no client address is known. Set `clientAddress` in the configuration " +
          "(behind proxies you control, `forwardedFor({ proxies: 1 })` from `@portcullis/core/client-address`), use an integration that " +
          "passes it (`@portcullis/express`, `@portcullis/sveltekit`), or set `rateLimit: { perClient: false }`.",
      )
    }
    return undefined
  }
  const key = await clientAddressOf(context)
  if (key === undefined) return undefined
  const count = await limits.store.hit(await targetKey(`client-${rule}`, key), window.windowSeconds)
  if (count.count <= window.limit) return undefined
  if (count.count === window.limit + 1) {
    config.logger.warn("ClientLimit", `A client made more than ${String(window.limit)} requests of \`rateLimit.perClient.${rule}\` within ${String(window.windowSeconds)} s; it is answered 429 until the window ends.`)
  }
  return tooMany(context.request, count.resetAt)
}
