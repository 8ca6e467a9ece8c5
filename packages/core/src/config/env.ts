/**
 * The one home of environment reading: where the variables come from (`process.env`, or the
 * object an integration passes, such as SvelteKit's `$env/dynamic/private`), how a provider's
 * variable is named, and what an empty value means.
 *
 * @module
 */

/** Environment variables by name, as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>

/** The last `process.env` seen and its guarded view: made once, not per read. */
let guarded: { source: Env; view: Env } | undefined

/**
 * `source` with a read the runtime refuses taken as unset: Deno lets a program read only the
 * variables `--allow-env=<names>` lists and throws `NotCapable` for any other, and core reads
 * several an app may never have named (`AUTH_TRUST_HOST`, `AUTH_<ID>_ISSUER`...).
 */
function guardedEnv(source: Env): Env {
  const refusedAsUnset = <T>(read: () => T, unset: T): T => {
    try {
      return read()
    } catch {
      return unset
    }
  }
  // The target is an empty object, not `source`: after each read a Proxy checks its invariants
  // against the target's own property, and asking Deno's `process.env` for that throws again.
  return new Proxy<Env>(
    {},
    {
      get: (_target, name) => refusedAsUnset(() => Reflect.get(source, name) as unknown, undefined),
      has: (_target, name) => refusedAsUnset(() => Reflect.has(source, name), false),
      ownKeys: () => refusedAsUnset(() => Reflect.ownKeys(source), []),
      getOwnPropertyDescriptor: (_target, name) => {
        const descriptor = refusedAsUnset(() => Reflect.getOwnPropertyDescriptor(source, name), undefined)
        // A Proxy may report a property its target lacks only as configurable.
        return descriptor === undefined ? undefined : { ...descriptor, configurable: true }
      },
    },
  )
}

/**
 * The environment variables, where the runtime has them: `process.env` on Node.js, Bun, Deno's
 * Node compatibility and workerd's `nodejs_compat`, an empty record elsewhere (an edge runtime
 * passes its own). A variable the runtime refuses to show (Deno without `--allow-env` for it)
 * reads as unset.
 */
export function readEnv(): Env {
  const source = (globalThis as { process?: { env?: Env } }).process?.env
  if (source === undefined) return {}
  if (guarded?.source !== source) guarded = { source, view: guardedEnv(source) }
  return guarded.view
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
