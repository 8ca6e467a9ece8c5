/**
 * The third stage of `config/`: checking. {@link checkConfig} looks at the normalised
 * configuration as a whole, for what no single option shows: a secret from our docs or too weak
 * for production, and an adapter that the session strategy and the providers need (or lack the
 * methods of).
 */
import type { AdapterMethod } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import { isPlaceholderSecret, placeholderRefusal, secretWeakness } from "../crypto/secret-strength.js"
import type { FlowProvider, InternalConfig } from "../internal.js"
import type { LoggerInstance } from "../model.js"
import type { SessionStrategy } from "../types.js"
import type { Env } from "./env.js"

/**
 * Checks `config` across its options; a weak secret outside production is warned about through
 * its logger.
 *
 * @param secretOption How a message names where the secrets came from (`readOptions` says).
 * @throws {Configuration} naming what to fix.
 */
export function checkConfig(config: InternalConfig, secretOption: string, env: Env): void {
  checkSecrets(config.secrets, secretOption, env, config.logger)
  checkAdapter(config.adapter, config.session.strategy, config.providers)
}

/**
 * Each secret checked (`secret-strength.ts`): a placeholder from our docs is refused, a weak one
 * warned about, and refused under `NODE_ENV=production`.
 *
 * @throws {Configuration} when one is a placeholder, or is weak in production.
 */
export function checkSecrets(secrets: readonly string[], option: string, env: Env, logger: LoggerInstance): void {
  if (secrets.some(isPlaceholderSecret)) throw new Configuration(placeholderRefusal(option))
  for (const item of secrets) {
    const weakness = secretWeakness(item)
    if (weakness === undefined) continue
    const advice = `${option} is weak (${weakness}; see "The secret" in @portcullis/core's README): generate one with \`openssl rand -base64 32\`.`
    if (env.NODE_ENV === "production") throw new Configuration(`${advice} With NODE_ENV=production a weak secret is refused.`)
    logger.warn("WeakSecret", advice)
    break
  }
}

/** The adapter methods database sessions call. */
const SESSION_METHODS: AdapterMethod[] = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"]

function checkAdapter(adapter: InternalConfig["adapter"], strategy: SessionStrategy, providers: readonly FlowProvider[]): void {
  if (adapter === undefined) {
    if (strategy === "database") throw new Configuration('`session.strategy: "database"` needs an `adapter`.')
    for (const provider of providers) {
      const { needsAdapter } = provider.flow
      const reason = typeof needsAdapter === "function" ? needsAdapter(provider.options) : needsAdapter
      if (reason !== undefined) throw new Configuration(`Provider "${provider.id}" needs an \`adapter\` ${reason}.`)
    }
    return
  }
  const needed = new Set([
    ...providers.flatMap((provider) => provider.flow.adapterMethods?.(provider.options, { strategy }) ?? []),
    ...(strategy === "database" ? SESSION_METHODS : []),
  ])
  const missing = [...needed].filter((method) => typeof (adapter as Record<string, unknown>)[method] !== "function")
  if (missing.length > 0) {
    throw new Configuration(`The \`adapter\` is missing methods this configuration calls: ${missing.join(", ")}.`)
  }
}
