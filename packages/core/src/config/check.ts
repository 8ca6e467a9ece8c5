/**
 * The third stage of `config/`: checking. {@link checkConfig} looks at the normalised
 * configuration as a whole, for what no single option shows: an adapter that the session
 * strategy and the providers need, or that lacks the methods they call. (A secret's strength is
 * a property of the one option: the read stage checks it.)
 */
import type { AdapterMethod } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import type { FlowProvider, InternalConfig } from "../internal.js"
import type { SessionStrategy } from "../types.js"

/**
 * Checks `config` across its options: the adapter the session strategy and the providers need,
 * and that a provider is left to sign in with when some lack a value.
 *
 * @throws {Configuration} naming what to fix.
 */
export function checkConfig(config: InternalConfig): void {
  checkSomeProvider(config)
  checkAdapter(config.adapter, config.session.strategy, config.providers)
}

/**
 * An app whose every provider lacks a value (a deployment without its variables) cannot sign
 * anyone in: it fails as a whole, naming each provider's values, rather than looking healthy.
 */
function checkSomeProvider({ providers, unavailable }: InternalConfig): void {
  if (providers.length > 0 || unavailable.size === 0) return
  throw new Configuration(`No provider can sign in: ${[...unavailable.values()].map((error) => error.message).join(" ")}`)
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
