/**
 * `@portcullis/sveltekit`: `@portcullis/core` in SvelteKit with @auth/sveltekit's API.
 * `SvelteKitAuth(config)` gives the `handle` hook (the auth routes under `/auth`, and
 * `event.locals.auth()` for load functions and endpoints) and the `signIn` / `signOut` form
 * actions. Conversion only: every check lives in core.
 *
 * @module
 */
import { Auth, type AccessToken, type RecentAuth, type RecentAuthCheck, type Session } from "@portcullis/core"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import type { Action, Handle } from "@sveltejs/kit"
import { accessTokenOf, readForm, recentAuthOf, signIn, signInFields, signOut, signOutFields, sessionOf } from "./actions.js"
import { addressedRequest } from "./client-address.js"
import { basePathOf, configFor, type SvelteKitAuthConfigInput } from "./config.js"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, DefaultSession, Profile, RecentAuth, RecentAuthCheck, Session, User } from "@portcullis/core"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "./actions.js"
export type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from "./config.js"

/** What `SvelteKitAuth(config)` returns. */
export interface SvelteKitAuthResult {
  /**
   * The server hook (`export { handle } from "./auth"` in `src/hooks.server.ts`): answers every
   * request under `basePath` (`/auth`) with core, and gives every other request
   * `event.locals.auth()`. Compose it with others through `sequence()`.
   */
  handle: Handle
  /**
   * Form action (`export const actions = { default: signIn }`): reads `providerId`, `redirectTo`
   * and the provider's fields (`email`, credentials) from the form, signs in, and redirects to the
   * provider (or the page core sends the browser to).
   *
   * @throws SvelteKit's redirect.
   */
  signIn: Action
  /**
   * Form action: signs out (ending the session in core), then redirects to the form's
   * `redirectTo`, else the page the form was on.
   *
   * @throws SvelteKit's redirect.
   */
  signOut: Action
}

/**
 * Sets up authentication for a SvelteKit app: the one call @auth/sveltekit apps make, in
 * `src/auth.ts`. `config` is core's `AuthConfig`, or a function of the request event returning it.
 * `secret`, `url`, `trustHost` and each provider's `clientId` / `clientSecret` / `issuer` default
 * to `AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST` and `AUTH_<PROVIDER>_ID` / `_SECRET` /
 * `_ISSUER` from `$env/dynamic/private`; the routes live under `/auth` (after `paths.base`).
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@portcullis/sveltekit"
 * import GitHub from "@portcullis/sveltekit/providers/github"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [GitHub] })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 * ```
 */
export function SvelteKitAuth(config: SvelteKitAuthConfigInput): SvelteKitAuthResult {
  return {
    handle: async ({ event, resolve }) => {
      const resolved = await configFor(config, event)
      event.locals.auth = () => sessionOf(event, resolved)
      event.locals.getAccessToken = (providerId) => accessTokenOf(event, resolved, providerId)
      event.locals.requireRecentAuth = (options) => recentAuthOf(event, resolved, options)
      event.locals.listSessions = async () => (await import("./sessions.js")).sessionsOf(event, resolved)
      event.locals.revokeSessions = async (target, options) => (await import("./sessions.js")).revokeOf(event, resolved, target, options?.redirectTo)
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- kept for apps written against older @auth/sveltekit
      event.locals.getSession = event.locals.auth
      if (event.url.pathname.startsWith(`${basePathOf(resolved)}/`)) return Auth(addressedRequest(event), resolved)
      return resolve(event)
    },
    signIn: async (event) => {
      const resolved = await configFor(config, event)
      const { provider, options, authorizationParams } = signInFields(await readForm(event))
      await signIn(event, resolved, provider, options, authorizationParams)
    },
    signOut: async (event) => {
      const resolved = await configFor(config, event)
      await signOut(event, resolved, signOutFields(await readForm(event)))
    },
  }
}

declare global {
  // SvelteKit's own way to type `event.locals` and page data: its `App` namespace.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace App {
    interface Locals {
      /** The session of the request, or `null` when signed out; a renewal is written on the response. */
      auth: () => Promise<Session | null>
      /** @deprecated Use `auth()`, as @auth/sveltekit does. */
      getSession: () => Promise<Session | null>
      /**
       * The signed-in user's access token at a provider, refreshed when due (core's
       * `getAccessToken`); `null` when signed out or not linked. Renewed cookies are written on
       * the response.
       *
       * @throws {RefreshTokenError} when a due refresh fails.
       */
      getAccessToken: (providerId: string) => Promise<AccessToken | null>
      /**
       * Guards a sensitive page or action (core's `requireRecentAuth`): `{ ok: true, session }` when
       * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`;
       * else `{ ok: false, url }`: the sign-in page, `/mfa/setup` (level 2 without a second
       * factor) or the re-authentication page, back to this page. A renewal is written on the response.
       *
       * @example
       * ```ts
       * const recent = await event.locals.requireRecentAuth()
       * if (!recent.ok) redirect(303, recent.url)
       * ```
       */
      requireRecentAuth: (options?: RecentAuthCheck) => Promise<RecentAuth>
      /**
       * The signed-in user's sessions on every device (core's `listSessions`), the current one
       * first; `null` when signed out. Needs an adapter that keeps session records.
       *
       * @throws {Configuration} when the adapter keeps no session records.
       */
      listSessions: () => Promise<SessionInfo[] | null>
      /**
       * From a form action: ends sessions of the signed-in user (core's `revokeSessions`): `{ id }`,
       * `{ others: true }` or `{ all: true }` (sign out everywhere; the answer's `url` is where to
       * send the browser). The CSRF token is not checked: SvelteKit's form actions are protected.
       *
       * @throws {Configuration} when the adapter keeps no session records.
       */
      revokeSessions: (target: RevokeTarget, options?: { redirectTo?: string }) => Promise<RevokeResult | null>
    }
    interface PageData {
      session?: Session | null
    }
  }
}
