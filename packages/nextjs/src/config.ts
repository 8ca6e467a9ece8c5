/**
 * The user's `NextAuth(config)` argument turned into core's `AuthConfig` for one request: a
 * config function is called with the request, and next-auth's environment fallbacks are filled in.
 */
import { envValue, type AuthConfig, type Awaitable, type Session } from "@portcullis/core"
import type { NextRequest } from "next/server.js"

/** What the `authorized` callback is given: the request and its session. */
export interface AuthorizedParams {
  request: NextRequest
  auth: Session | null
}

/** core's callbacks plus `authorized`, which the middleware calls. */
export type NextAuthCallbacks = NonNullable<AuthConfig["callbacks"]> & {
  /**
   * Decides in middleware (`proxy`) whether a request may go on: `true` lets it, `false` sends
   * the browser to the sign-in page (with a `callbackUrl` back), a `Response` is answered as is.
   */
  authorized?: (params: AuthorizedParams) => Awaitable<boolean | Response | undefined>
}

/** The configuration of `NextAuth()`: core's, plus the `authorized` callback for middleware. */
export type NextAuthConfig = Omit<AuthConfig, "callbacks"> & { callbacks?: NextAuthCallbacks }

/** A configuration, or a function of the request (`undefined` in server components and actions) returning one. */
export type NextAuthConfigInput = NextAuthConfig | ((request: NextRequest | undefined) => Awaitable<NextAuthConfig>)

const prepared = new WeakMap<NextAuthConfig, AuthConfig>()

/**
 * `config` with the v4 names next-auth v5 still honours (`NEXTAUTH_SECRET`, `NEXTAUTH_URL`) when
 * the `AUTH_*` ones are unset, and `trustHost` under `next dev`; core reads `AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST` and
 * `AUTH_<PROVIDER>_ID` / `_SECRET` itself. One object per config, so core's cache of the
 * validated config keeps working.
 */
function withEnvDefaults(config: NextAuthConfig): AuthConfig {
  let found = prepared.get(config)
  if (found === undefined) {
    const secret = config.secret ?? (envValue("AUTH_SECRET") === undefined ? envValue("NEXTAUTH_SECRET") : undefined)
    const url = config.url ?? (envValue("AUTH_URL") === undefined ? envValue("NEXTAUTH_URL") : undefined)
    // `next dev` serves on the developer's own machine: its Host header is trusted there, as next-auth does.
    // Links and redirect_uris still come only from a configured or loopback origin (core's rule).
    const devTrust = config.trustHost === undefined && envValue("AUTH_TRUST_HOST") === undefined && envValue("NODE_ENV") === "development"
    found = {
      ...config,
      ...(secret === undefined ? {} : { secret }),
      ...(url === undefined ? {} : { url }),
      ...(devTrust ? { trustHost: true } : {}),
    }
    prepared.set(config, found)
  }
  return found
}

/** Resolves the configuration for one request. */
export async function configFor(input: NextAuthConfigInput, request: NextRequest | undefined): Promise<AuthConfig> {
  const config = typeof input === "function" ? await input(request) : input
  return withEnvDefaults(config)
}

/** The `authorized` callback of a resolved configuration, when set. */
export function authorizedCallback(config: AuthConfig): NextAuthCallbacks["authorized"] {
  // The user's config passed through untouched, so its callbacks object still has `authorized`.
  const callbacks: NextAuthCallbacks | undefined = config.callbacks
  return callbacks?.authorized
}

/** Where the routes are served: the config's `basePath`, else `AUTH_URL`'s path, else `/api/auth` (as core decides). */
export function basePathOf(config: AuthConfig): string {
  if (config.basePath !== undefined) return config.basePath.replace(/\/+$/, "")
  const url = config.url ?? envValue("AUTH_URL")
  if (url !== undefined && URL.canParse(url)) {
    const path = new URL(url).pathname.replace(/\/+$/, "")
    if (path !== "") return path
  }
  return "/api/auth"
}
