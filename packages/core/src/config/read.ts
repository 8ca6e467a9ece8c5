/**
 * The first stage of `config/`: reading. {@link readOptions} takes the app's `AuthConfig` and the
 * environment, copies each option out, and checks its type where it is first turned into a typed
 * value; nothing after this stage looks at the app's object again. The checks themselves are
 * shared by every provider type, so each failure reads the same and names the option.
 */
import { isPlaceholderSecret, secretWeakness } from "../crypto/secret-strength.js"
import { Configuration, MissingSecret } from "../errors/errors.js"
import { createLogger } from "../errors/logger.js"
import type { LoggerInstance } from "../model.js"
import type { AuthConfig, JWTOptions, MailOptions, SessionStrategy } from "../types.js"
import type { Env } from "./env.js"

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/**
 * An optional function option.
 *
 * @throws {Configuration} naming the option when it is set to something else.
 */
// The type parameter names what the validated value is; callers pass it explicitly.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function optionalFunction<T>(value: unknown, option: string): T | undefined {
  if (value !== undefined && typeof value !== "function") throw new Configuration(`\`${option}\` must be a function.`)
  return value as T | undefined
}

/**
 * An `<input>` attribute of a form field option (credentials fields, passkey form fields): its
 * value, or the value of a signal holding it (`{ value }`, as Auth.js's Preact-typed fields
 * allow), read once.
 */
export function inputAttribute(value: unknown): unknown {
  return isRecord(value) && "value" in value ? value.value : value
}

/**
 * An optional string option.
 *
 * @throws {Configuration} naming the option when it is set to something else.
 */
export function optionalString(value: unknown, option: string): string | undefined {
  if (value !== undefined && typeof value !== "string") throw new Configuration(`\`${option}\` must be a string.`)
  return value
}

/**
 * A number of seconds, floored; `fallback` when unset.
 *
 * @throws {Configuration} naming the option when it is not a finite positive number (or, with
 * `allowZero`, non-negative).
 */
export function positiveSeconds(value: unknown, option: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Configuration(`\`${option}\` must be a ${allowZero ? "non-negative" : "positive"} number of seconds.`)
  }
  return Math.floor(value)
}

/**
 * `session.idleTimeout`: off when unset, else at least a minute.
 *
 * @throws {Configuration} naming the option when it is not such a number.
 */
function readIdleTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined
  const seconds = positiveSeconds(value, "session.idleTimeout", MIN_IDLE_TIMEOUT)
  if (seconds < MIN_IDLE_TIMEOUT) throw new Configuration(`\`session.idleTimeout\` must be at least ${String(MIN_IDLE_TIMEOUT)} seconds (or left out to turn it off).`)
  return seconds
}

// Environment reading has its own home; re-exported for the option readers that import it from here.
export { envName, readEnv } from "./env.js"

/** A color from config, or `undefined` when it is not a plain CSS color (it lands in a style attribute). */
export function safeColor(value: string | undefined): string | undefined {
  return value !== undefined && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%]+\))$/.test(value) ? value : undefined
}

/** A provider that hangs holds the user this long per request at most. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000
/** ... and this long for a whole callback, however many requests it makes. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 15_000
/** A store (the adapter, `rateLimit.store`) that stops answering holds a request this long per call at most (`storeTimeout`). */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000
/** An authentication counts as recent this long (`session.reauthAge`): ten minutes, as OWASP's re-authentication guidance suggests for sensitive changes. */
export const DEFAULT_REAUTH_AGE = 600
/** A session ends this long after its sign-in, however it is used (`session.absoluteMaxAge`): 30 days, Auth.js's sliding default, now a bound. */
export const DEFAULT_ABSOLUTE_MAX_AGE = 30 * 24 * 60 * 60
/** The shortest `session.idleTimeout`: below it, a user reading a page is signed out. */
const MIN_IDLE_TIMEOUT = 60

/**
 * A duration option in milliseconds, up to two minutes; `fallback` when unset.
 *
 * @throws {Configuration} naming the option when it is not such a number.
 */
export function milliseconds(value: unknown, option: string, fallback: number): number {
  const ms = value ?? fallback
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > 120_000) {
    throw new Configuration(`\`${option}\` must be a number of milliseconds between 1 and 120000.`)
  }
  return ms
}

/**
 * The options an app seldom sets, as given (each with its environment variable): the lazily
 * loaded `normalise-rare.ts` checks them, and only when one of them is set.
 */
export interface RareOptions {
  rateLimit: unknown
  allowedOrigins: unknown
  /** `redirectProxyUrl`, or AUTH_REDIRECT_PROXY_URL. */
  redirectProxyUrl: unknown
  pages: unknown
  theme: unknown
  cookies: AuthConfig["cookies"]
  legacySessionCookies: unknown
}

/** What the read stage hands on: every option of the app's configuration, typed. */
export interface ReadOptions {
  debug: boolean
  /** The app's logger (or the console), redacting every secret known so far. */
  logger: LoggerInstance
  authUrl: URL | undefined
  basePath: string
  secrets: string[]
  trustHost: boolean
  session: {
    strategy: SessionStrategy
    maxAge: number
    updateAge: number
    generateSessionToken: (() => string) | undefined
    revocationCheckInterval: number
    reauthAge: number
    absoluteMaxAge: number
    idleTimeout: number | undefined
  }
  jwt: { maxAge: number; encode: JWTOptions["encode"]; decode: JWTOptions["decode"] }
  callbacks: NonNullable<AuthConfig["callbacks"]>
  events: NonNullable<AuthConfig["events"]>
  /** `mail.send`, the app's hook for core's mails that are not sign-in links. */
  mail: { send: MailOptions["send"] }
  /** Each provider object (a provider function called), with its checked, unique `id`. */
  providers: { config: Record<string, unknown>; id: string }[]
  useSecureCookies: boolean | undefined
  adapter: Record<string, unknown> | undefined
  storeTimeout: number
  clientAddress: ((request: Request) => unknown) | undefined
  /** `mfa` as given: `config/mfa.ts` reads it, loaded only when it is set. */
  mfa: unknown
  rare: RareOptions
}

/**
 * Reads `config` and `env` once: each option typed, the first invalid one reported. `logSecrets`
 * is filled as secrets become known: the logger redacts them from everything it is handed.
 *
 * @throws {Configuration} naming the option that is not usable.
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 */
export async function readOptions(config: AuthConfig, env: Env, logSecrets: string[]): Promise<ReadOptions> {
  if (!isRecord(config)) throw new Configuration("The configuration must be an object.")
  const debug = config.debug === true
  const logger = createLogger(config.logger, debug, logSecrets)
  const authUrl = parseAuthUrl(config.url, env)
  const secrets = await readSecrets(config.secret, env, logger, logSecrets)
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
  const generateSessionToken = optionalFunction<() => string>(session.generateSessionToken, "session.generateSessionToken")

  const jwt = isRecord(config.jwt) ? config.jwt : config.jwt === undefined ? {} : undefined
  if (jwt === undefined) throw new Configuration("`jwt` must be an object.")

  const callbacks = isRecord(config.callbacks) ? config.callbacks : {}
  for (const name of ["signIn", "redirect", "session", "jwt"] as const) optionalFunction(callbacks[name], `callbacks.${name}`)
  const events = isRecord(config.events) ? config.events : {}
  for (const [name, handler] of Object.entries(events)) optionalFunction(handler, `events.${name}`)
  const mail = readMail(config.mail)

  const providers = readProviders(config.providers)
  const useSecureCookies = config.useSecureCookies
  if (useSecureCookies !== undefined && typeof useSecureCookies !== "boolean") {
    throw new Configuration("`useSecureCookies` must be a boolean.")
  }
  const adapter: unknown = config.adapter
  if (adapter !== undefined && !isRecord(adapter)) throw new Configuration("`adapter` must be an object implementing the Adapter interface.")
  const storeTimeout = milliseconds(config.storeTimeout, "storeTimeout", DEFAULT_STORE_TIMEOUT_MS)

  return {
    debug,
    logger,
    authUrl,
    basePath: readBasePath(config.basePath, authUrl),
    secrets,
    trustHost,
    session: {
      strategy,
      maxAge,
      updateAge,
      generateSessionToken,
      revocationCheckInterval: positiveSeconds(session.revocationCheckInterval, "session.revocationCheckInterval", 30, true),
      reauthAge: positiveSeconds(session.reauthAge, "session.reauthAge", DEFAULT_REAUTH_AGE),
      absoluteMaxAge: positiveSeconds(session.absoluteMaxAge, "session.absoluteMaxAge", DEFAULT_ABSOLUTE_MAX_AGE),
      idleTimeout: readIdleTimeout(session.idleTimeout),
    },
    jwt: {
      maxAge: positiveSeconds(jwt.maxAge, "jwt.maxAge", maxAge),
      encode: optionalFunction<NonNullable<JWTOptions["encode"]>>(jwt.encode, "jwt.encode"),
      decode: optionalFunction<NonNullable<JWTOptions["decode"]>>(jwt.decode, "jwt.decode"),
    },
    callbacks,
    events,
    mail,
    providers,
    useSecureCookies,
    adapter,
    storeTimeout,
    clientAddress: optionalFunction(config.clientAddress, "clientAddress"),
    mfa: config.mfa,
    rare: {
      rateLimit: config.rateLimit,
      allowedOrigins: config.allowedOrigins,
      redirectProxyUrl: config.redirectProxyUrl ?? env.AUTH_REDIRECT_PROXY_URL,
      pages: config.pages,
      theme: config.theme,
      cookies: config.cookies,
      legacySessionCookies: config.legacySessionCookies,
    },
  }
}

/**
 * The secrets, copied (so an edit of the app's array is noticed, never silently shared), added
 * to what the logger redacts, each checked (`secret-strength.ts`): a placeholder from our docs is
 * refused, a weak one warned about, and refused under `NODE_ENV=production`.
 *
 * @throws {MissingSecret} when there is none; {Configuration} when one is not a non-empty string,
 * is a placeholder, or is weak in production.
 */
export async function readSecrets(secret: unknown, env: Env, logger: LoggerInstance, logSecrets: string[]): Promise<string[]> {
  const secrets = secretList(secret, env)
  for (const item of secrets) if (!logSecrets.includes(item)) logSecrets.push(item)
  const placeholder = secrets.some(isPlaceholderSecret)
  const weakness = placeholder ? undefined : secrets.map((item) => secretWeakness(item)).find((found) => found !== undefined)
  if (!placeholder && weakness === undefined) return secrets
  // The sentences load only for a secret to refuse or warn about.
  const { placeholderRefusal, weakSecretAdvice } = await import("../crypto/secret-refusals.js")
  const option = secret === undefined ? "AUTH_SECRET" : secrets.length > 1 ? "An entry of `secret`" : "`secret`"
  if (weakness === undefined) throw new Configuration(placeholderRefusal(option))
  if (env.NODE_ENV === "production") throw new Configuration(weakSecretAdvice(option, weakness, true))
  logger.warn("WeakSecret", weakSecretAdvice(option, weakness, false))
  return secrets
}

function secretList(secret: unknown, env: Env): string[] {
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

/**
 * `mail`, copied: `send` when set.
 *
 * @throws {Configuration} when `mail` is not an object or `mail.send` not a function.
 */
function readMail(mail: unknown): ReadOptions["mail"] {
  if (mail !== undefined && !isRecord(mail)) throw new Configuration("`mail` must be an object such as `{ send: (message) => ... }`.")
  return { send: optionalFunction<MailOptions["send"]>(mail?.send, "mail.send") }
}

function readBasePath(value: unknown, authUrl: URL | undefined): string {
  const path: unknown = value ?? (authUrl !== undefined && authUrl.pathname !== "/" ? authUrl.pathname : "/api/auth")
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("//") || /[?#\\\s]/.test(path)) {
    throw new Configuration("`basePath` must be an absolute path such as `/api/auth`.")
  }
  return path.replace(/\/+$/, "")
}

function parseAuthUrl(value: unknown, env: Env): URL | undefined {
  const option = value === undefined ? "The AUTH_URL environment variable" : "`url`"
  const raw = value ?? env.AUTH_URL
  if (raw === "") return undefined
  return httpUrl(raw, `${option} must be an absolute http(s) URL such as "https://app.example.com".`)
}

/**
 * A URL option, parsed; `undefined` when unset.
 *
 * @throws {Configuration} with `message` when it is set to anything but an absolute http(s) URL.
 */
export function httpUrl(value: unknown, message: string): URL | undefined {
  if (value === undefined) return undefined
  try {
    if (typeof value !== "string") throw new TypeError("not a string")
    const url = new URL(value)
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError("not http(s)")
    return url
  } catch (cause) {
    throw new Configuration(message, { cause })
  }
}

/**
 * Each provider object, a provider function called, with its `id` checked and unique. Which flow
 * serves it is the normalise stage's (`flows.ts`).
 *
 * @throws {Configuration} naming the provider entry to fix.
 */
function readProviders(providers: unknown): ReadOptions["providers"] {
  if (!Array.isArray(providers)) throw new Configuration("`providers` must be an array.")
  const seen = new Set<string>()
  return (providers as unknown[]).map((provider, index) => {
    const value: unknown = typeof provider === "function" ? (provider as () => unknown)() : provider
    if (!isRecord(value)) throw new Configuration(`\`providers[${index}]\` must be a provider object or a function returning one.`)
    // A provider in Auth.js's style carries the options its factory was given, whose `id` wins.
    const id: unknown = isRecord(value.options) && value.options.id !== undefined ? value.options.id : value.id
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
      throw new Configuration(`\`providers[${index}].id\` must be 1 to 64 letters, digits, \`-\` or \`_\`.`)
    }
    if (seen.has(id)) throw new Configuration(`Two providers have the id "${id}": each \`id\` must be unique.`)
    seen.add(id)
    return { config: value, id }
  })
}
