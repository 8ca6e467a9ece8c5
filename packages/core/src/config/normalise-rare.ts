/**
 * The normalise stage for the options most apps never set (`rateLimit`, `allowedOrigins`,
 * `redirectProxyUrl`, `pages`, `theme`, `cookies`, `legacySessionCookies`): `normalise.ts` loads
 * this module only when one of them (or its environment variable) is set, so an app that sets
 * none never carries these checks.
 */
import { CLIENT_DEFAULTS, CLIENT_RULES, type ClientLimits, type ClientRule } from "../limits/client-limit-rules.js"
import { Configuration } from "../errors/errors.js"
import type { InternalConfig } from "../internal.js"
import type { Theme } from "../model.js"
import { compileOriginPattern } from "../http/origin-patterns.js"
import { isAllowedOrigin, type OriginPattern, type OriginPolicy } from "../http/origins.js"
import { httpUrl, isRecord, safeColor, type RareOptions } from "./read.js"
import type { RateLimitStore } from "../limits/rate-limit-store.js"
import type { AuthConfig, PagesOptions } from "../types.js"

type Env = Record<string, string | undefined>

/** The seldom set options in their internal form. */
export interface RareNormalised {
  redirectProxyUrl: URL | undefined
  rateLimit: InternalConfig["rateLimit"]
  allowedOrigins: OriginPattern[]
  pages: PagesOptions
  theme: Theme
  legacySessionCookies: InternalConfig["legacySessionCookies"]
}

/**
 * Each seldom set option normalised, in one pass, `rateLimitDefaults` standing in for the
 * `rateLimit` values not set. `cookies` is checked here; `normalise.ts` turns it into the cookie
 * options either way.
 *
 * @throws {Configuration} naming the first option that is not usable.
 */
export function normaliseRare(rare: RareOptions, env: Env, rateLimitDefaults: NonNullable<InternalConfig["rateLimit"]>, authUrl?: URL): RareNormalised {
  const redirectProxyUrl = normalizeUrl(rare.redirectProxyUrl, "redirectProxyUrl")
  const rateLimit = normalizeRateLimit(rare.rateLimit, rateLimitDefaults)
  const allowedOrigins = normalizeAllowedOrigins(rare.allowedOrigins, env)
  const pages = normalizePages(rare.pages)
  checkCookies(rare.cookies)
  const theme = normalizeTheme(rare.theme, { canonical: authUrl, trustHost: false, allowed: allowedOrigins })
  return { redirectProxyUrl, rateLimit, allowedOrigins, pages, theme, legacySessionCookies: normalizeLegacySessionCookies(rare.legacySessionCookies) }
}

/**
 * `allowedOrigins` (or AUTH_ALLOWED_ORIGINS), compiled.
 *
 * @throws {Configuration} naming the entry that is not an origin.
 */
export function normalizeAllowedOrigins(value: unknown, env: Env): OriginPattern[] {
  if (value === undefined) {
    const list = env.AUTH_ALLOWED_ORIGINS
    if (list === undefined || list.trim() === "") return []
    return list.split(",").map((entry, index) => compileOriginPattern(entry.trim(), `AUTH_ALLOWED_ORIGINS[${index}]`))
  }
  if (!Array.isArray(value)) throw new Configuration("`allowedOrigins` must be an array of origins such as \"https://*.preview.example.com\".")
  return value.map((entry, index) => compileOriginPattern(entry, `allowedOrigins[${index}]`))
}

/**
 * `redirectProxyUrl` (or AUTH_REDIRECT_PROXY_URL), parsed.
 *
 * @throws {Configuration} when it is not an absolute http(s) URL.
 */
export function normalizeUrl(value: unknown, option: string): URL | undefined {
  return httpUrl(value, `\`${option}\` must be an absolute http(s) URL.`)
}

/**
 * `pages`, each path checked.
 *
 * @throws {Configuration} naming the page that is not a path or an absolute URL.
 */
export function normalizePages(pages: unknown): PagesOptions {
  if (pages === undefined) return {}
  if (!isRecord(pages)) throw new Configuration("`pages` must be an object of paths.")
  const out: PagesOptions = {}
  for (const key of ["signIn", "signOut", "error", "verifyRequest", "newUser"] as const) {
    const page = pages[key]
    if (page === undefined) continue
    if (typeof page !== "string" || !(page.startsWith("/") || /^https?:\/\//.test(page)) || page.startsWith("//")) {
      throw new Configuration(`\`pages.${key}\` must be a path such as \`/login\` or an absolute URL.`)
    }
    out[key] = page
  }
  return out
}

/**
 * The theme, each value checked: the pages would otherwise drop a bad one without a word.
 *
 * @throws {Configuration} naming the theme option that is not usable.
 */
export function normalizeTheme(theme: unknown, origins: OriginPolicy = { canonical: undefined, trustHost: false, allowed: [] }): Theme {
  if (theme === undefined) return {}
  if (!isRecord(theme)) throw new Configuration("`theme` must be an object.")
  const { colorScheme, brandColor, buttonText, logo, brandName, homeUrl } = theme
  if (colorScheme !== undefined && colorScheme !== "auto" && colorScheme !== "light" && colorScheme !== "dark") {
    throw new Configuration('`theme.colorScheme` must be "auto", "light" or "dark".')
  }
  for (const [option, color] of [["brandColor", brandColor], ["buttonText", buttonText]] as const) {
    if (color !== undefined && (typeof color !== "string" || safeColor(color) === undefined)) {
      throw new Configuration(`\`theme.${option}\` must be a CSS color such as "#346df1", "rgb(52 109 241)" or "navy".`)
    }
  }
  if (logo !== undefined && (typeof logo !== "string" || logo === "")) throw new Configuration("`theme.logo` must be an https or data: image URL.")
  // eslint-disable-next-line no-control-regex
  if (brandName !== undefined && (typeof brandName !== "string" || brandName.trim() === "" || brandName.length > 100 || /[\u0000-\u001f\u007f]/.test(brandName))) {
    throw new Configuration("`theme.brandName` must be the app's name: text of 1 to 100 characters, such as \"Acme\".")
  }
  checkHomeUrl(homeUrl, origins)
  return { ...theme }
}

/**
 * `theme.homeUrl`, checked as a `callbackUrl` is: every page links to it, so a URL on an origin
 * the app does not admit would send its users elsewhere from the sign-in page itself.
 *
 * @throws {Configuration} when it is not a path or a URL on `url`'s origin or one of `allowedOrigins`.
 */
function checkHomeUrl(homeUrl: unknown, origins: OriginPolicy): void {
  if (homeUrl === undefined) return
  const message = "`theme.homeUrl` must be a path such as \"/\" or an absolute http(s) URL on `url`'s origin or one of `allowedOrigins`"
  // Control characters and backslashes are how `/\evil.example`-style values slip past parsers.
  // eslint-disable-next-line no-control-regex
  if (typeof homeUrl !== "string" || homeUrl.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(homeUrl)) throw new Configuration(`${message}.`)
  if (homeUrl.startsWith("/") && !homeUrl.startsWith("//")) return
  let url: URL
  try {
    url = new URL(homeUrl)
  } catch (cause) {
    throw new Configuration(`${message}.`, { cause })
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Configuration(`${message}.`)
  if (!isAllowedOrigin(origins, url.origin)) throw new Configuration(`${message}: ${url.origin} is neither.`)
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * Checks the `cookies` overrides, each name usable by browsers.
 *
 * @throws {Configuration} naming the cookie option to fix.
 */
export function checkCookies(overrides: AuthConfig["cookies"]): void {
  if (overrides !== undefined) {
    if (!isRecord(overrides)) throw new Configuration("`cookies` must be an object.")
    for (const [key, value] of Object.entries(overrides)) {
      if (!isRecord(value)) throw new Configuration(`\`cookies.${key}\` must be an object.`)
      if (value.name !== undefined && (typeof value.name !== "string" || !COOKIE_NAME.test(value.name))) {
        throw new Configuration(`\`cookies.${key}.name\` must be a valid cookie name.`)
      }
      const options = isRecord(value.options) ? value.options : {}
      if (typeof value.name === "string" && value.name.startsWith("__Host-") && (options.domain !== undefined || (options.path ?? "/") !== "/")) {
        // Browsers drop such a cookie without a word; the sign-in would then fail on every request.
        throw new Configuration(`\`cookies.${key}.name\` starts with \`__Host-\`, which browsers accept only without \`domain\` and with \`path: "/"\`.`)
      }
    }
  }
}

/** A calendar date (UTC), or a date-time that says its offset: a bare local time would mean another instant on each server. */
const ISO_DATE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?$/

/**
 * `legacySessionCookies`, with `until` as a `Date`.
 *
 * @throws {Configuration} naming `legacySessionCookies.until` when it is not a valid date.
 */
export function normalizeLegacySessionCookies(value: unknown): InternalConfig["legacySessionCookies"] {
  if (value === undefined) return undefined
  const until = isRecord(value) ? value.until : undefined
  const date = until instanceof Date || (typeof until === "string" && ISO_DATE.test(until)) ? new Date(until) : undefined
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new Configuration('`legacySessionCookies.until` must be a Date or an ISO 8601 date such as "2026-04-30" or "2026-04-30T00:00:00Z" (a time needs its offset).')
  }
  return { until: date }
}

function wholeNumber(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new Configuration(`\`${option}\` must be a positive whole number.`)
  return value
}

/**
 * `rateLimit`, each value checked, `defaults` standing in for those not set.
 *
 * @throws {Configuration} naming the `rateLimit` option that is not usable.
 */
export function normalizeRateLimit(value: unknown, defaults: NonNullable<InternalConfig["rateLimit"]>): InternalConfig["rateLimit"] {
  if (value === false) return undefined
  const options = value ?? {}
  if (!isRecord(options)) throw new Configuration("`rateLimit` must be `false` or an object.")
  const { store } = options
  if (store !== undefined && (!isRecord(store) || typeof store.hit !== "function" || typeof store.peek !== "function" || typeof store.reset !== "function")) {
    throw new Configuration("`rateLimit.store` must have `hit`, `peek` and `reset` methods.")
  }
  const perClient = normalizePerClient(options.perClient)
  const mail = isRecord(options.mailPerAddress) ? options.mailPerAddress : {}
  const credentials = isRecord(options.credentials) ? options.credentials : {}
  return {
    store: store as RateLimitStore | undefined,
    mail: { limit: wholeNumber(mail.limit, "rateLimit.mailPerAddress.limit", defaults.mail.limit), windowSeconds: wholeNumber(mail.window, "rateLimit.mailPerAddress.window", defaults.mail.windowSeconds) },
    credentials: {
      failures: wholeNumber(credentials.failures, "rateLimit.credentials.failures", defaults.credentials.failures),
      windowSeconds: wholeNumber(credentials.lockout, "rateLimit.credentials.lockout", defaults.credentials.windowSeconds),
    },
    ...(perClient === undefined ? {} : { perClient }),
  }
}

/**
 * `rateLimit.perClient`: `false`, or each rule's window (`false` turning one rule off), the
 * defaults standing in for what is not set; `undefined` when every rule is a default.
 *
 * @throws {Configuration} naming the rule or value that is not usable.
 */
function normalizePerClient(value: unknown): ClientLimits | false | undefined {
  if (value === undefined || value === false) return value
  if (!isRecord(value)) throw new Configuration("`rateLimit.perClient` must be `false` or an object of rules.")
  const out: ClientLimits = {}
  for (const [rule, given] of Object.entries(value)) {
    if (!(CLIENT_RULES as readonly string[]).includes(rule)) {
      throw new Configuration(`\`rateLimit.perClient.${rule}\` is not a rule: use ${CLIENT_RULES.map((name) => `\`${name}\``).join(", ")}.`)
    }
    const name = rule as ClientRule
    if (given === undefined) continue
    if (given === false) {
      out[name] = false
      continue
    }
    if (!isRecord(given)) throw new Configuration(`\`rateLimit.perClient.${name}\` must be \`false\` or \`{ limit, window }\`.`)
    const defaults = CLIENT_DEFAULTS[name]
    out[name] = {
      limit: wholeNumber(given.limit, `rateLimit.perClient.${name}.limit`, defaults.limit),
      windowSeconds: wholeNumber(given.window, `rateLimit.perClient.${name}.window`, defaults.windowSeconds),
    }
  }
  return out
}
