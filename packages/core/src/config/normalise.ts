/**
 * The second stage of `config/`: normalising. {@link normaliseConfig} turns the options the read
 * stage typed into their internal form: defaults filled in, the seldom set
 * options (`normalise-rare.ts`, loaded only when one is set), the providers (`flows.ts`) and the
 * stores bounded by `storeTimeout`.
 */
import type { Adapter } from "../adapters.js"
import { randomString } from "../crypto/crypto.js"
import { defaultCookies } from "../http/cookies.js"
import type { InternalConfig } from "../internal.js"
import type { Env } from "./env.js"
import { normaliseProviders } from "./flows.js"
import type { RareNormalised } from "./normalise-rare.js"
import type { ReadOptions } from "./read.js"

/**
 * The configuration in its internal form, not yet checked across options (`check.ts`).
 * `logSecrets` gains the providers' secrets: the logger redacts them from everything it is
 * handed.
 *
 * @throws {Configuration} naming a seldom set option or a provider option that is not usable.
 */
export async function normaliseConfig(read: ReadOptions, env: Env, logSecrets: string[]): Promise<InternalConfig> {
  const rare = await normaliseRare(read, env)
  const redirectProxyUrl = rare?.redirectProxyUrl
  const { providers, unavailable, unavailableSecrets } = await normaliseProviders(read.providers, { env, redirectProxyUrl, mfa: read.mfa })
  for (const provider of providers) logSecrets.push(...(provider.flow.secrets?.(provider.options) ?? []))
  logSecrets.push(...unavailableSecrets)
  const adapter = read.adapter as Adapter | undefined
  const rateLimit = rare === undefined ? defaultRateLimit() : rare.rateLimit
  // Loaded only by apps with a store to bound; the default memory store answers at once.
  const stores = adapter !== undefined || rateLimit?.store !== undefined ? await import("../outbound/store-timeout.js") : undefined
  const { session, storeTimeout } = read

  return {
    basePath: read.basePath,
    secrets: read.secrets,
    trustHost: read.trustHost,
    authUrl: read.authUrl,
    origins: { canonical: read.authUrl, trustHost: read.trustHost, allowed: rare?.allowedOrigins ?? [] },
    providers,
    providersById: new Map(providers.map((provider) => [provider.id, provider])),
    unavailable,
    flowRoutes: new Set(providers.flatMap((provider) => Object.keys(provider.flow.routes ?? {}))),
    session: { ...session, generateSessionToken: session.generateSessionToken ?? (() => randomString(32)) },
    jwt: { ...read.jwt },
    callbacks: { ...read.callbacks },
    events: { ...read.events },
    mail: { ...read.mail },
    pages: rare?.pages ?? {},
    cookies: { secure: defaultCookies(true, read.rare.cookies), insecure: defaultCookies(false, read.rare.cookies) },
    useSecureCookies: read.useSecureCookies,
    redirectProxyUrl,
    logger: read.logger,
    debug: read.debug,
    production: env.NODE_ENV === "production",
    theme: rare?.theme ?? {},
    adapter: adapter === undefined ? undefined : stores?.adapterWithStoreTimeout(adapter, storeTimeout),
    storeTimeout,
    // Loaded only by an app that sets `mfa`: its reading and checks add nothing to the others.
    mfa: read.mfa === undefined ? undefined : (await import("./mfa.js")).normaliseMfa(read.mfa, adapter, { mail: read.mail, providers }),
    legacySessionCookies: rare?.legacySessionCookies,
    rateLimit: rateLimit?.store === undefined ? rateLimit : { ...rateLimit, store: stores?.rateLimitStoreWithTimeout(rateLimit.store, storeTimeout) },
    clientAddress: read.clientAddress,
  }
}

/** The seldom set options normalised, `undefined` when none is set: their checks then never load. */
async function normaliseRare(read: ReadOptions, env: Env): Promise<RareNormalised | undefined> {
  const { rare } = read
  const given = [rare.rateLimit, rare.allowedOrigins, env.AUTH_ALLOWED_ORIGINS, rare.redirectProxyUrl, rare.pages, rare.theme, rare.cookies, rare.legacySessionCookies]
  if (given.every((value) => value === undefined)) return undefined
  return (await import("./normalise-rare.js")).normaliseRare(rare, env, defaultRateLimit(), read.authUrl)
}

/**
 * `rateLimit`'s defaults: 3 mails per address per 15 minutes; 10 failed passwords, then 15
 * minutes. A new object per configuration: each gets its own default store.
 */
function defaultRateLimit(): NonNullable<InternalConfig["rateLimit"]> {
  return { store: undefined, mail: { limit: 3, windowSeconds: 15 * 60 }, credentials: { failures: 10, windowSeconds: 15 * 60 } }
}
