/**
 * `@portcullis/astro`: `@portcullis/core` in an Astro app with on-demand rendering (an adapter,
 * such as `@astrojs/node`). One line in `astro.config.mjs`, `integrations: [portcullis()]`,
 * serves the auth routes at `/api/auth/[...auth]` and gives every page and endpoint
 * `Astro.locals.auth()`; the configuration is the default export of `auth.config.ts`
 * ({@link defineConfig}), as auth-astro reads it. Conversion only: Astro hands pages and endpoints
 * a web `Request`, and every check lives in core.
 *
 * @module
 */
import { fileURLToPath } from "node:url"
import type { AuthConfig, Session } from "@portcullis/core"
import type { AstroIntegration } from "astro"

export type { AccessToken, Account, AuthConfig, Profile, Session, User } from "@portcullis/core"

/** Options of {@link portcullis}. */
export interface PortcullisOptions {
  /**
   * The module whose default export is the configuration, from the project's root; Vite resolves
   * its extension. Default `./auth.config` (`auth.config.ts`, `.mjs`, `.js`).
   */
  configFile?: string
  /** Where the auth routes are served, core's `basePath`. Default `/api/auth`. */
  basePath?: string
  /**
   * For an app that turned Astro's `security.checkOrigin` off to receive a provider's `form_post`
   * callback or back-channel logout: `true` adds a middleware doing Astro's check on every request
   * but those two routes' posts, which core checks itself. Default `false`.
   */
  checkOrigin?: boolean
}

/** The module the route, the middleware and the server functions read the configuration from, served by the integration's Vite plugin. */
const CONFIG_MODULE = "portcullis:config"

declare global {
  // Astro's own way to type `Astro.locals` and `context.locals`: its `App` namespace.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace App {
    interface Locals {
      /**
       * The session of the request, read once, or `null` when signed out (and on a prerendered
       * page, which has no visitor). A renewed session cookie is written with `Astro.cookies`.
       */
      auth: () => Promise<Session | null>
    }
  }
}

/**
 * Types the configuration of `auth.config.ts` and returns it as it is, as auth-astro's
 * `defineConfig` does.
 *
 * @example
 * ```ts
 * // auth.config.ts
 * export default defineConfig({ providers: [GitHub] })
 * ```
 */
export function defineConfig(config: AuthConfig): AuthConfig {
  return config
}

/**
 * The Astro integration: injects the route `{basePath}/[...auth]` (every auth route, rendered on
 * demand), adds the middleware that sets `Astro.locals.auth()`, and serves the configuration
 * module to both. Astro's own `security.checkOrigin` stays as the app sets it.
 *
 * @example
 * ```js
 * // astro.config.mjs
 * export default defineConfig({ output: "server", adapter: node({ mode: "standalone" }), integrations: [portcullis()] })
 * ```
 */
export default function portcullis(options: PortcullisOptions = {}): AstroIntegration {
  const basePath = options.basePath ?? "/api/auth"
  return {
    name: "@portcullis/astro",
    hooks: {
      "astro:config:setup": ({ config, injectRoute, addMiddleware, updateConfig }) => {
        const file = fileURLToPath(new URL(options.configFile ?? "./auth.config", config.root))
        const resolved = `\0${CONFIG_MODULE}`
        updateConfig({
          vite: {
            plugins: [
              {
                name: "@portcullis/astro:config",
                resolveId: (id: string) => (id === CONFIG_MODULE ? resolved : undefined),
                load: (id: string) => (id === resolved ? `export { default } from ${JSON.stringify(file)}\nexport const basePath = ${JSON.stringify(basePath)}\n` : undefined),
              },
            ],
            // Bundled with the app, never loaded from node_modules at run time: the route, the
            // middleware and the server functions import the configuration module above.
            ssr: { noExternal: ["@portcullis/astro"] },
          },
        })
        injectRoute({ pattern: `${basePath}/[...auth]`, entrypoint: "@portcullis/astro/route", prerender: false })
        if (options.checkOrigin === true) addMiddleware({ entrypoint: "@portcullis/astro/check-origin", order: "pre" })
        addMiddleware({ entrypoint: "@portcullis/astro/middleware", order: "pre" })
      },
    },
  }
}
