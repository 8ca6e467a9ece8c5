/**
 * The one home of environment reading: where the variables come from (`process.env`, or the
 * object an integration passes, such as SvelteKit's `$env/dynamic/private`), how a provider's
 * variable is named, and what an empty value means.
 *
 * @module
 */

/** Environment variables by name, as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>

/**
 * The environment variables, where the runtime has them: `process.env` on Node.js, Bun and
 * Deno's Node compatibility, an empty record elsewhere (an edge runtime passes its own).
 */
export function readEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {}
}

/**
 * The environment variable a provider option is read from: `AUTH_<ID>_<SUFFIX>`, `-` as `_`.
 *
 * @example
 * ```ts
 * envName("azure-ad", "SECRET") // "AUTH_AZURE_AD_SECRET"
 * ```
 */
export function envName(id: string, suffix: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}_${suffix}`
}

/**
 * One variable's value, `undefined` when it is unset or empty (a deployment that blanks a
 * variable means "not set").
 *
 * @example
 * ```ts
 * const url = config.url ?? envValue("AUTH_URL") // process.env
 * const secret = envValue("AUTH_SECRET", env) // SvelteKit's $env/dynamic/private
 * ```
 */
export function envValue(name: string, env: Env = readEnv()): string | undefined {
  const value = env[name]
  return value === "" ? undefined : value
}

/**
 * A yes/no variable such as `AUTH_TRUST_HOST`: `true` for `"true"` or `"1"`, `false` for any
 * other value, `undefined` when it is unset or empty.
 */
export function envFlag(name: string, env: Env = readEnv()): boolean | undefined {
  const value = envValue(name, env)
  return value === undefined ? undefined : value === "true" || value === "1"
}
