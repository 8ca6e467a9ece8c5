/**
 * The `config/` room: from the app's `AuthConfig` to the `InternalConfig` every route reads. The
 * environment (`env.ts`), the checks an option goes through (`options.ts`), the options an app
 * seldom sets (`config-options.ts`), the flow registry (`flows.ts`, `flow-key.ts`), put together
 * here. It imports no route, no `sign-in/` and no session code; a flow only through the registry,
 * on first use.
 *
 * Turns the user's `AuthConfig` into the validated, normalised configuration the routes use:
 * once per config object (cached), never mutating it, failing with an error that names the
 * option to fix.
 */
import type { Adapter, AdapterMethod } from "../adapters.js"
import { defaultCookies } from "../http/cookies.js"
import { AuthError, Configuration, MissingSecret } from "../errors/errors.js"
import { builtInFlow, configureProvider } from "./flows.js"
import type { FlowProvider, InternalConfig, ProviderSetup } from "../internal.js"
import { createLogger } from "../errors/logger.js"
import type { LoggerInstance } from "../model.js"
import type { AuthConfig, JWTOptions, SessionStrategy } from "../types.js"
import { randomString, sameSecrets } from "../crypto/crypto.js"
import { isPlaceholderSecret, placeholderRefusal, secretWeakness } from "../crypto/secret-strength.js"
import { DEFAULT_STORE_TIMEOUT_MS, isRecord, milliseconds, optionalFunction, positiveSeconds, readEnv } from "./options.js"
import type * as ConfigOptions from "./config-options.js"

type Env = Record<string, string | undefined>

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
 * Reads `config` once (fetching the built-in flows its providers need) and caches the outcome, a
 * failure included: a broken configuration fails the same way on every request.
 *
 * @throws {Configuration} or {MissingSecret} when an option is invalid.
 */
async function readConfig(config: AuthConfig): Promise<Resolved> {
  const logSecrets: string[] = []
  try {
    const internal = await normalizeConfig(config, readEnv(), logSecrets)
    const resolved = { internal, fromEnv: config.secret === undefined, logSecrets }
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
function rotateSecrets(config: AuthConfig, cached: Resolved): InternalConfig {
  const { logger } = cached.internal
  const internal = { ...cached.internal, secrets: readSecrets(config.secret, readEnv(), logger, cached.logSecrets) }
  cache.set(config, { ...cached, internal, fromEnv: config.secret === undefined })
  return internal
}

/**
 * The secrets, copied (so an edit of the app's array is noticed, never silently shared), added
 * to what the logger redacts, each checked (`secret-strength.ts`): a placeholder from our docs is
 * refused, a weak one warned about, and refused under `NODE_ENV=production`.
 *
 * @throws {MissingSecret} when there is none; {Configuration} when one is not a non-empty string,
 * is a placeholder, or is weak in production.
 */
function readSecrets(secret: unknown, env: Env, logger: LoggerInstance, logSecrets: string[]): string[] {
  const secrets = normalizeSecrets(secret, env)
  for (const item of secrets) if (!logSecrets.includes(item)) logSecrets.push(item)
  const option = secret === undefined ? "AUTH_SECRET" : secrets.length > 1 ? "An entry of `secret`" : "`secret`"
  if (secrets.some(isPlaceholderSecret)) throw new Configuration(placeholderRefusal(option))
  for (const item of secrets) {
    const weakness = secretWeakness(item)
    if (weakness === undefined) continue
    const advice = `${option} is weak (${weakness}; see "The secret" in @portcullis/core's README): generate one with \`openssl rand -base64 32\`.`
    if (env.NODE_ENV === "production") throw new Configuration(`${advice} With NODE_ENV=production a weak secret is refused.`)
    logger.warn("WeakSecret", advice)
    break
  }
  return secrets
}

function normalizeSecrets(secret: unknown, env: Env): string[] {
  const value = secret ?? env.AUTH_SECRET
  const list = Array.isArray(value) ? (value as unknown[]) : value === undefined || value === "" ? [] : [value]
  if (list.length === 0) {
    throw new MissingSecret(
      "Set `secret` in the configuration or the AUTH_SECRET environment variable (for example, the output of `openssl rand -base64 32`).",
    )
  }
  for (const item of list) {
    if (typeof item !== "string" || item === "") throw new Configuration("`secret` must be a non-empty string or an array of them.")
  }
  return [...list] as string[]
}

function normalizeBasePath(value: unknown, authUrl: URL | undefined): string {
  const path: unknown = value ?? (authUrl !== undefined && authUrl.pathname !== "/" ? authUrl.pathname : "/api/auth")
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("//") || /[?#\\\s]/.test(path)) {
    throw new Configuration("`basePath` must be an absolute path such as `/api/auth`.")
  }
  return path.replace(/\/+$/, "")
}

function parseAuthUrl(value: unknown, env: Env): URL | undefined {
  const option = value === undefined ? "The AUTH_URL environment variable" : "`url`"
  const raw = value ?? env.AUTH_URL
  if (raw === undefined || raw === "") return undefined
  try {
    if (typeof raw !== "string") throw new TypeError("not a string")
    const url = new URL(raw)
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError("not http(s)")
    return url
  } catch (cause) {
    throw new Configuration(`${option} must be an absolute http(s) URL such as "https://app.example.com".`, { cause })
  }
}

function normalizeCookies(overrides: AuthConfig["cookies"], options: typeof ConfigOptions | undefined): InternalConfig["cookies"] {
  options?.checkCookies(overrides)
  return { secure: defaultCookies(true, overrides), insecure: defaultCookies(false, overrides) }
}

function resolveProvider(provider: unknown, index: number): Record<string, unknown> {
  const value: unknown = typeof provider === "function" ? (provider as () => unknown)() : provider
  if (!isRecord(value)) throw new Configuration(`\`providers[${index}]\` must be a provider object or a function returning one.`)
  return value
}

/**
 * Each provider configured by the flow that serves it (its own, or the built-in one of its type).
 *
 * @throws {Configuration} naming the provider and the option to fix.
 */
async function normalizeProviders(providers: unknown, setup: ProviderSetup): Promise<FlowProvider[]> {
  if (!Array.isArray(providers)) throw new Configuration("`providers` must be an array.")
  const seen = new Set<string>()
  const out: FlowProvider[] = []
  for (const [index, provider] of (providers as unknown[]).entries()) {
    const config = resolveProvider(provider, index)
    const id: unknown = config.id
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
      throw new Configuration(`\`providers[${index}].id\` must be 1 to 64 letters, digits, \`-\` or \`_\`.`)
    }
    if (seen.has(id)) throw new Configuration(`Two providers have the id "${id}": each \`id\` must be unique.`)
    seen.add(id)
    out.push(configureProvider(config, id, await builtInFlow(config, id), setup))
  }
  return out
}

/** The adapter methods database sessions call. */
const SESSION_METHODS: AdapterMethod[] = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"]

function checkAdapter(adapter: unknown, strategy: SessionStrategy, providers: readonly FlowProvider[]): Adapter | undefined {
  if (adapter === undefined) {
    if (strategy === "database") throw new Configuration('`session.strategy: "database"` needs an `adapter`.')
    for (const provider of providers) {
      const { needsAdapter } = provider.flow
      const reason = typeof needsAdapter === "function" ? needsAdapter(provider.options) : needsAdapter
      if (reason !== undefined) throw new Configuration(`Provider "${provider.id}" needs an \`adapter\` ${reason}.`)
    }
    return undefined
  }
  if (!isRecord(adapter)) throw new Configuration("`adapter` must be an object implementing the Adapter interface.")
  const needed = new Set([
    ...providers.flatMap((provider) => provider.flow.adapterMethods?.(provider.options, { strategy }) ?? []),
    ...(strategy === "database" ? SESSION_METHODS : []),
  ])
  const missing = [...needed].filter((method) => typeof adapter[method] !== "function")
  if (missing.length > 0) {
    throw new Configuration(`The \`adapter\` is missing methods this configuration calls: ${missing.join(", ")}.`)
  }
  return adapter
}

/** Reads `config`; `logSecrets` is filled as secrets become known: the logger redacts them from everything it is handed. */
async function normalizeConfig(config: AuthConfig, env: Env, logSecrets: string[]): Promise<InternalConfig> {
  if (!isRecord(config)) throw new Configuration("The configuration must be an object.")
  const debug = config.debug === true
  const logger = createLogger(config.logger, debug, logSecrets)
  const authUrl = parseAuthUrl(config.url, env)
  const secrets = readSecrets(config.secret, env, logger, logSecrets)
  const envTrust = env.AUTH_TRUST_HOST
  const trustHost =
    config.trustHost ?? (envTrust !== undefined ? envTrust === "true" || envTrust === "1" : authUrl !== undefined)
  if (typeof trustHost !== "boolean") throw new Configuration("`trustHost` must be a boolean.")

  const session = isRecord(config.session) ? config.session : config.session === undefined ? {} : undefined
  if (session === undefined) throw new Configuration("`session` must be an object.")
  const strategy = session.strategy ?? (config.adapter !== undefined ? "database" : "jwt")
  if (strategy !== "jwt" && strategy !== "database") throw new Configuration('`session.strategy` must be "jwt" or "database".')
  const maxAge = positiveSeconds(session.maxAge, "session.maxAge", 30 * 24 * 60 * 60)
  const updateAge = positiveSeconds(session.updateAge, "session.updateAge", 24 * 60 * 60, true)
  const generateSessionToken =
    optionalFunction<() => string>(session.generateSessionToken, "session.generateSessionToken") ?? (() => randomString(32))

  const jwt = isRecord(config.jwt) ? config.jwt : config.jwt === undefined ? {} : undefined
  if (jwt === undefined) throw new Configuration("`jwt` must be an object.")

  const callbacks = isRecord(config.callbacks) ? config.callbacks : {}
  for (const name of ["signIn", "redirect", "session", "jwt"] as const) optionalFunction(callbacks[name], `callbacks.${name}`)
  const events = isRecord(config.events) ? config.events : {}
  for (const [name, handler] of Object.entries(events)) optionalFunction(handler, `events.${name}`)

  // The checks of options most apps never set load only when one of them is set.
  const rare = [config.rateLimit, config.allowedOrigins, env.AUTH_ALLOWED_ORIGINS, config.redirectProxyUrl, env.AUTH_REDIRECT_PROXY_URL, config.pages, config.theme, config.cookies, config.legacySessionCookies]
  const options = rare.some((value) => value !== undefined) ? await import("./config-options.js") : undefined
  const redirectProxyUrl = options?.normalizeUrl(config.redirectProxyUrl ?? env.AUTH_REDIRECT_PROXY_URL, "redirectProxyUrl")
  const providers = await normalizeProviders(config.providers, { env, redirectProxyUrl })
  for (const provider of providers) logSecrets.push(...(provider.flow.secrets?.(provider.options) ?? []))
  const useSecureCookies = config.useSecureCookies
  if (useSecureCookies !== undefined && typeof useSecureCookies !== "boolean") {
    throw new Configuration("`useSecureCookies` must be a boolean.")
  }
  const adapter = checkAdapter(config.adapter, strategy, providers)
  const rateLimit = options === undefined ? defaultRateLimit() : options.normalizeRateLimit(config.rateLimit, defaultRateLimit())
  const storeTimeout = milliseconds(config.storeTimeout, "storeTimeout", DEFAULT_STORE_TIMEOUT_MS)
  // Loaded only by apps with a store to bound; the default memory store answers at once.
  const stores = adapter !== undefined || rateLimit?.store !== undefined ? await import("../outbound/store.js") : undefined

  return {
    basePath: normalizeBasePath(config.basePath, authUrl),
    secrets,
    trustHost,
    authUrl,
    origins: { canonical: authUrl, trustHost, allowed: options?.normalizeAllowedOrigins(config.allowedOrigins, env) ?? [] },
    providers,
    providersById: new Map(providers.map((provider) => [provider.id, provider])),
    flowRoutes: new Set(providers.flatMap((provider) => Object.keys(provider.flow.routes ?? {}))),
    session: { strategy, maxAge, updateAge, generateSessionToken, revocationCheckInterval: positiveSeconds(session.revocationCheckInterval, "session.revocationCheckInterval", 30, true) },
    jwt: {
      maxAge: positiveSeconds(jwt.maxAge, "jwt.maxAge", maxAge),
      encode: optionalFunction<NonNullable<JWTOptions["encode"]>>(jwt.encode, "jwt.encode"),
      decode: optionalFunction<NonNullable<JWTOptions["decode"]>>(jwt.decode, "jwt.decode"),
    },
    callbacks: { ...callbacks },
    events: { ...events },
    pages: options?.normalizePages(config.pages) ?? {},
    cookies: normalizeCookies(config.cookies, options),
    useSecureCookies,
    redirectProxyUrl,
    logger,
    debug,
    theme: options?.normalizeTheme(config.theme) ?? {},
    adapter: adapter === undefined ? undefined : stores?.adapterWithStoreTimeout(adapter, storeTimeout),
    legacySessionCookies: options?.normalizeLegacySessionCookies(config.legacySessionCookies),
    rateLimit: rateLimit?.store === undefined ? rateLimit : { ...rateLimit, store: stores?.rateLimitStoreWithTimeout(rateLimit.store, storeTimeout) },
    clientAddress: optionalFunction(config.clientAddress, "clientAddress"),
  }
}

/**
 * `rateLimit`'s defaults: 3 mails per address per 15 minutes; 10 failed passwords, then 15
 * minutes. A new object per configuration: each gets its own default store.
 */
function defaultRateLimit(): NonNullable<InternalConfig["rateLimit"]> {
  return { store: undefined, mail: { limit: 3, windowSeconds: 15 * 60 }, credentials: { failures: 10, windowSeconds: 15 * 60 } }
}
