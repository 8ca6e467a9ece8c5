/**
 * The `config/` room: one pipeline from the app's `AuthConfig` to the `InternalConfig` every
 * route reads, in three stages run in this order, each owning its files and importing only the
 * stages before it (a dependency-cruiser rule, `.dependency-cruiser.mjs`'s CONFIG_STAGES):
 * 1. read (`env.ts`, `flow-key.ts`, `read.ts`): the environment and each option copied out of
 *    the app's object and typed (the secrets' strength with them); nothing later looks at that
 *    object again;
 * 2. normalise (`flows.ts`, `normalise-rare.ts`, `mfa.ts`, `normalise.ts`): each option in its
 *    internal form, the providers configured by their flows, the seldom set options and `mfa`
 *    checked by modules loaded only when one is set;
 * 3. check (`check.ts`): what only the whole shows (the adapter the session strategy and the
 *    providers need).
 * This file is the door: {@link resolveConfig} runs the stages once per config object (cached),
 * never mutating it, failing with an error that names the option to fix, and logging once the
 * providers it leaves out for a missing value. The room imports no
 * route, no `sign-in/` and no session code; a flow only through the registry, on first use.
 */
import { AuthError, Configuration } from "../errors/errors.js"
import type { InternalConfig } from "../internal.js"
import type { AuthConfig } from "../types.js"
import { sameSecrets } from "../crypto/crypto.js"
import { checkConfig } from "./check.js"
import { readEnv } from "./env.js"
import { normaliseConfig } from "./normalise.js"
import { isRecord, readOptions, readSecrets } from "./read.js"

/** A configuration as read, and what is needed to notice and apply a change of its `secret`. */
interface Resolved {
  internal: InternalConfig
  /** Whether `secret` was unset, so the secrets came from AUTH_SECRET (read once per configuration). */
  fromEnv: boolean
  /** The values the logger redacts: every secret ever configured stays among them. */
  logSecrets: string[]
}

const cache = new WeakMap<AuthConfig, Resolved | AuthError | Promise<Resolved>>()

/**
 * The validated configuration for `config`, computed on first use and cached per object. Only
 * `secret` is read again, on every call (a few comparisons): after `config.secret = [next,
 * previous]` or an edit of the array in place, new tokens are sealed with the new first secret
 * and a secret no longer listed opens nothing. Every other option is read once.
 *
 * @throws {Configuration} when an option is invalid; the message names it.
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 */
export async function resolveConfig(config: AuthConfig): Promise<InternalConfig> {
  if (!isRecord(config)) throw new Configuration("`Auth(request, config)` needs a configuration object.")
  let cached = cache.get(config)
  if (cached === undefined) {
    const reading = readConfig(config)
    cache.set(config, reading)
    cached = reading
  }
  if (cached instanceof AuthError) throw cached
  if (cached instanceof Promise) cached = await cached
  const secret: unknown = config.secret
  if ((secret === undefined && cached.fromEnv) || sameSecrets(secret, cached.internal.secrets)) return cached.internal
  return rotateSecrets(config, cached)
}

/**
 * Runs the stages once for `config` (fetching the built-in flows its providers need) and caches
 * the outcome, a failure included: a broken configuration fails the same way on every request.
 *
 * @throws {Configuration} or {MissingSecret} when an option is invalid.
 */
async function readConfig(config: AuthConfig): Promise<Resolved> {
  const logSecrets: string[] = []
  // The door's own bookkeeping, read before the app's object is handed to the read stage: no
  // stage after that one looks at it again.
  const fromEnv = config.secret === undefined
  try {
    const env = readEnv()
    const read = await readOptions(config, env, logSecrets)
    const internal = await normaliseConfig(read, env, logSecrets)
    checkConfig(internal)
    // Once per process, not per reading: an app that builds its configuration per request reads one per request.
    if (internal.unavailable.size > 0) {
      // The once-per-process bookkeeping loads only for an app with a provider left out.
      const { logOnce } = await import("../errors/log-once.js")
      for (const error of internal.unavailable.values()) logOnce(internal.logger, error)
    }
    const resolved = { internal, fromEnv, logSecrets }
    cache.set(config, resolved)
    return resolved
  } catch (error) {
    const failure = error instanceof AuthError ? error : new Configuration("The configuration could not be read.", { cause: error })
    cache.set(config, failure)
    throw failure
  }
}

/**
 * The configuration with the secrets `config.secret` lists now. Keys are cached per secrets
 * list, so a new list derives new keys and nothing sealed or remembered under a removed secret
 * opens. An invalid new `secret` is not cached: the app may still fix it.
 *
 * @throws {Configuration} or {MissingSecret} when the new `secret` is not usable.
 */
async function rotateSecrets(config: AuthConfig, cached: Resolved): Promise<InternalConfig> {
  const { logger } = cached.internal
  const internal = { ...cached.internal, secrets: await readSecrets(config.secret, readEnv(), logger, cached.logSecrets) }
  cache.set(config, { ...cached, internal, fromEnv: config.secret === undefined })
  return internal
}
