/**
 * The user's `SvelteKitAuth(config)` argument turned into core's `AuthConfig` for one request: a
 * config function is called with the event, and what @auth/sveltekit reads from SvelteKit's
 * environment (`$env/dynamic/private`, `dev`, `base`) is filled in where the config is silent.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { envFlag, envName, envValue, type AuthConfig, type Awaitable, type Env } from "@portcullis/core"
import { building, dev } from "$app/environment"
import { base as deprecatedBase } from "$app/paths"
import { env } from "$env/dynamic/private"

// `base` rather than `resolve()`: the peer range starts before SvelteKit 2.26, which added it.
// eslint-disable-next-line @typescript-eslint/no-deprecated
const base: string = deprecatedBase

/** The configuration of `SvelteKitAuth()`: core's `AuthConfig`. Its `basePath` defaults to `/auth` (after SvelteKit's `paths.base`). */
export type SvelteKitAuthConfig = AuthConfig

/** A configuration, or a function of the request event returning one (lazy initialization, e.g. from `event.platform.env`). */
export type SvelteKitAuthConfigInput = SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>)

type ProviderEntry = AuthConfig["providers"][number]

/**
 * A provider with `clientId`, `clientSecret` and `issuer` from `$env` where it sets none: on
 * platforms without `process.env` (Cloudflare, Deno) core cannot read them itself.
 */
function withProviderEnv(entry: ProviderEntry, variables: Env): ProviderEntry {
  const provider: unknown = typeof entry === "function" ? (entry as () => unknown)() : entry
  if (typeof provider !== "object" || provider === null) return entry
  const options = provider as { id?: unknown; clientId?: unknown; clientSecret?: unknown; issuer?: unknown }
  if (typeof options.id !== "string") return entry
  const filled: Record<string, string> = {}
  for (const [key, suffix] of [["clientId", "ID"], ["clientSecret", "SECRET"], ["issuer", "ISSUER"]] as const) {
    const value = envValue(envName(options.id, suffix), variables)
    if (options[key] === undefined && value !== undefined) filled[key] = value
  }
  return Object.keys(filled).length === 0 ? entry : ({ ...options, ...filled } as ProviderEntry)
}

const prepared = new WeakMap<SvelteKitAuthConfig, AuthConfig>()

/**
 * `config` with SvelteKit's defaults: `basePath` `${base}/auth`, `secret` and `url` from
 * `AUTH_SECRET` / `AUTH_URL`, `trustHost` from `AUTH_TRUST_HOST`, or `true` under `vite dev`
 * (the developer's own machine, as @auth/sveltekit does). One object per config, so core's cache
 * of the validated config keeps working.
 */
export function withEnvDefaults(config: SvelteKitAuthConfig, variables: Env = env): AuthConfig {
  // SvelteKit refuses reads of `$env/dynamic/private` while it prerenders pages at build time.
  if (building) return { ...config, basePath: config.basePath ?? `${base}/auth` }
  let found = prepared.get(config)
  if (found === undefined) {
    const secret = config.secret ?? envValue("AUTH_SECRET", variables)
    const url = config.url ?? envValue("AUTH_URL", variables)
    const trustHost = config.trustHost ?? envFlag("AUTH_TRUST_HOST", variables) ?? (dev ? true : undefined)
    found = {
      ...config,
      basePath: config.basePath ?? `${base}/auth`,
      providers: config.providers.map((entry) => withProviderEnv(entry, variables)),
      ...(secret === undefined ? {} : { secret }),
      ...(url === undefined ? {} : { url }),
      ...(trustHost === undefined ? {} : { trustHost }),
    }
    prepared.set(config, found)
  }
  return found
}

/** Resolves the configuration for one request event. */
export async function configFor(input: SvelteKitAuthConfigInput, event: RequestEvent): Promise<AuthConfig> {
  return withEnvDefaults(typeof input === "function" ? await input(event) : input)
}

/** Where the routes are served, without a trailing slash. */
export function basePathOf(config: AuthConfig): string {
  return (config.basePath ?? `${base}/auth`).replace(/\/+$/, "")
}
