/**
 * `@portcullis/nuxt`: `@portcullis/core` as a Nuxt module. `modules: ["@portcullis/nuxt"]` serves
 * the auth routes under `/api/auth` from the configuration in `server/auth.config.ts`, gives the
 * app `useSession()`, `signIn()`, `signOut()` and the `auth` route middleware, and the server
 * `auth(event)`, `getAccessToken`, `listSessions`, `revokeSessions`, `unlinkAccount` and
 * `requireRecentAuth`. Conversion only: Nitro's event becomes a web `Request`, and every check
 * lives in core.
 *
 * @module
 */
import { isAbsolute, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Nuxt, NuxtModule } from "nuxt/schema"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, AuthConfig, Profile, RecentAuth, RecentAuthCheck, ServerUnlinkAccountOptions, Session, User } from "@portcullis/core"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** The module's options, under `portcullis` in `nuxt.config` (or inline in `modules`). */
export interface ModuleOptions {
  /**
   * The file whose default export is core's `AuthConfig`, from the project's root (`~~/`) or
   * source directory (`~/`). Default `~~/server/auth.config`.
   */
  config?: string
  /** Where the auth routes are served, and where the composables find them. Default `/api/auth`. */
  basePath?: string
}

declare module "nuxt/schema" {
  interface NuxtConfig {
    /** `@portcullis/nuxt`'s options. */
    portcullis?: ModuleOptions
  }
  interface PublicRuntimeConfig {
    portcullis: { basePath: string }
  }
}

const NAME = "@portcullis/nuxt"
const RUNTIME = fileURLToPath(new URL("./runtime", import.meta.url))
/** The server functions Nitro imports on its own, as `auth(event)` and the rest. */
const SERVER_FUNCTIONS = ["auth", "getAccessToken", "listSessions", "revokeSessions", "unlinkAccount", "requireRecentAuth"]

/** The configuration file's absolute path (without extension: Nitro resolves `.ts` or `.js`). */
function configPath(nuxt: Nuxt, file: string): string {
  if (file.startsWith("~~/")) return join(nuxt.options.rootDir, file.slice(3))
  if (file.startsWith("~/")) return join(nuxt.options.srcDir, file.slice(2))
  return isAbsolute(file) ? file : join(nuxt.options.rootDir, file)
}

/** The options given inline win over `nuxt.config`'s `portcullis`, field by field; neither is changed. */
function resolveOptions(inline: ModuleOptions | undefined, nuxt: Nuxt): Required<ModuleOptions> {
  const configured = (nuxt.options as { portcullis?: ModuleOptions }).portcullis ?? {}
  const basePath = (inline?.basePath ?? configured.basePath ?? "/api/auth").replace(/\/+$/, "")
  if (!basePath.startsWith("/") || basePath.includes("*")) throw new TypeError(`${NAME}: \`basePath\` must be an absolute path such as \`/api/auth\`.`)
  return { config: inline?.config ?? configured.config ?? "~~/server/auth.config", basePath }
}

function setup(inline: ModuleOptions | undefined, nuxt: Nuxt): void {
  const options = resolveOptions(inline, nuxt)
  const config = configPath(nuxt, options.config)
  const server = join(RUNTIME, "server")
  const app = join(RUNTIME, "app")
  // The app's own `runtimeConfig.public.portcullis` (set from the environment) is left as it is.
  nuxt.options.runtimeConfig.public.portcullis = { basePath: options.basePath, ...(nuxt.options.runtimeConfig.public.portcullis as object | undefined) }

  nuxt.options.serverHandlers.push({ route: `${options.basePath}/**`, handler: join(server, "handler.js") })
  nuxt.hook("nitro:config", (nitro) => {
    nitro.alias = { ...nitro.alias, "#portcullis/config": config, "#portcullis/server": join(server, "functions.js") }
    nitro.virtual = { ...nitro.virtual, "#portcullis/options": `export const basePath = ${JSON.stringify(options.basePath)}` }
    nitro.plugins = [...(nitro.plugins ?? []), join(server, "plugin.js")]
    if (nitro.imports !== false) {
      nitro.imports = { ...nitro.imports, imports: [...(nitro.imports?.imports ?? []), ...SERVER_FUNCTIONS.map((name) => ({ name, from: join(server, "functions.js") }))] }
    }
  })

  nuxt.options.plugins.unshift({ src: join(app, "plugin.js") })
  nuxt.hook("imports:extend", (imports) => {
    imports.push(...["useSession", "signIn", "signOut"].map((name) => ({ name, from: join(app, "composables.js") })))
  })
  nuxt.hook("app:resolve", (resolved) => {
    resolved.middleware.push({ name: "auth", path: join(app, "middleware.js"), global: false })
  })
}

/**
 * The Nuxt module: add `"@portcullis/nuxt"` to `modules` in `nuxt.config.ts`. It serves every
 * auth route (`/signin`, `/callback/:provider`, `/session`, `/signout`...) under `basePath` with
 * the `AuthConfig` that `server/auth.config.ts` exports as default (`AUTH_SECRET`, `AUTH_URL` and
 * the providers' `AUTH_*` variables are read from the server's environment, as core reads them).
 *
 * @throws TypeError at build time, when `basePath` is not an absolute path.
 * @example
 * ```ts
 * // nuxt.config.ts
 * export default defineNuxtConfig({ modules: ["@portcullis/nuxt"] })
 * // server/auth.config.ts
 * export default { providers: [GitHub] } satisfies AuthConfig
 * ```
 */
const portcullis: NuxtModule<ModuleOptions> = Object.assign((inline: ModuleOptions, nuxt: Nuxt) => {
  setup(inline, nuxt)
}, {
  getMeta: () => Promise.resolve({ name: NAME, configKey: "portcullis", compatibility: { nuxt: ">=3.16.0" } }),
  getOptions: (inline?: ModuleOptions, nuxt?: Nuxt) => Promise.resolve(nuxt === undefined ? { ...inline } : resolveOptions(inline, nuxt)),
})

export default portcullis
