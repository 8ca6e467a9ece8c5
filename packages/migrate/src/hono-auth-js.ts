/**
 * `@hono/auth-js`'s entries: its server middleware becomes `@portcullis/hono` (the same names),
 * its React entry `@portcullis/core/client`, with a step or a note for each name that does not
 * carry over as it was.
 */
import type { SpecifierMigration } from "./modules.js"

/** What `@hono/auth-js` exports that `@portcullis/hono` has not, or has with another meaning. */
const SERVER_NAMES: Readonly<Record<string, string>> = {
  setEnvDefaults: "setEnvDefaults is @hono/auth-js's own: core reads AUTH_SECRET, AUTH_URL and AUTH_<PROVIDER>_ID/_SECRET itself; on Workers, put c.env's values in the config your initAuthConfig function returns and drop the call",
  reqWithEnvUrl: "reqWithEnvUrl is @hono/auth-js's own: core takes the origin from AUTH_URL (or the request, with trustHost); drop the call and hand core the request as it came",
  AuthEnv: "AuthEnv in @portcullis/hono is Hono's environment with Portcullis's variables (new Hono<AuthEnv>()), no longer the type of the AUTH_* bindings: declare your Bindings' type yourself",
  AuthUser: "AuthUser (c.get(\"authUser\"), getAuthUser(c)) is { session } in @portcullis/hono: no token or user beside it, read session.user",
  ConfigHandler: "ConfigHandler's function returns the config itself in @portcullis/hono, not a Promise: resolve what it awaits before the app starts, and return the same object for the same environment (core keeps what it resolved per object)",
}

/** What `@hono/auth-js/react` exports that `@portcullis/core/client` has not. */
const REACT_NAMES: Readonly<Record<string, string>> = {
  SessionProvider: "SessionProvider (@hono/auth-js/react) has no counterpart: render the session on the server with c.var.auth(), or read it in the browser with getSession() from @portcullis/core/client, in an effect",
  useSession: "useSession (@hono/auth-js/react) has no counterpart: render the session on the server with c.var.auth(), or read it in the browser with getSession() from @portcullis/core/client, in an effect",
  SessionContext: "SessionContext (@hono/auth-js/react) has no counterpart: keep the session from getSession() of @portcullis/core/client in a context of your own",
  authConfigManager: "authConfigManager.setConfig({ basePath, baseUrl }) is configureClient({ basePath, baseUrl }) of @portcullis/core/client",
  useOauthPopupLogin: "useOauthPopupLogin (@hono/auth-js/react) has no counterpart: signIn(provider) of @portcullis/core/client takes the whole window to the provider",
}

/**
 * What becomes of `@hono/auth-js` or one of its subpaths.
 *
 * @example
 * ```ts
 * honoAuthJs("react", "@hono/auth-js/react") // { kind: "rewrite", to: "@portcullis/core/client", names: {...} }
 * ```
 */
export function honoAuthJs(subpath: string, from: string): SpecifierMigration {
  if (subpath === "") return { kind: "rewrite", to: "@portcullis/hono", names: SERVER_NAMES }
  if (subpath === "react") return { kind: "rewrite", to: "@portcullis/core/client", names: REACT_NAMES }
  return { kind: "manual", step: `"${from}" has no counterpart: @hono/auth-js's entries are "@hono/auth-js" (now "@portcullis/hono") and "@hono/auth-js/react" (now "@portcullis/core/client")` }
}
