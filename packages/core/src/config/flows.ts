/**
 * The normalise stage for providers: each provider configured by the flow that serves it
 * ({@link normaliseProviders}). How a provider finds that flow: a provider object carries it
 * under {@link FLOW} (every factory of `@portcullis/providers` does), so an app bundles only the flows
 * of the providers it imports; a provider written by hand (`{ type: "oidc", issuer, ... }`) gets
 * the built-in flow of its `type` from {@link builtInFlow}, fetched on first use.
 */
import { Configuration } from "../errors/errors.js"
import { FLOW, incompleteProblem } from "./flow-key.js"
import type { AdapterMethod } from "../adapters.js"
import type { FlowProvider, ProviderSetup, SignInFlow } from "../internal.js"
import type { ProviderType } from "../model.js"
import { envName, isRecord, type ReadOptions } from "./read.js"

export { FLOW }
export { incompleteProblem, incompleteProvider } from "./flow-key.js"

/** The flow a provider configuration carries, if any. */
export function flowOf(config: object): SignInFlow | undefined {
  const flow = (config as { [FLOW]?: unknown })[FLOW]
  return typeof flow === "object" && flow !== null && typeof (flow as SignInFlow).configure === "function" ? (flow as SignInFlow) : undefined
}

/**
 * The built-in flow of each provider `type`, for provider objects that carry none. Each is
 * fetched on first use: an app whose providers all carry their flow loads none of these here.
 */
const BUILT_IN: Partial<Record<string, () => Promise<SignInFlow>>> = {
  oauth: () => import("../oauth/flow.js").then((module) => module.oauth as SignInFlow),
  oidc: () => import("../oauth/flow.js").then((module) => module.oauth as SignInFlow),
  email: () => import("../email/flow.js").then((module) => module.email as SignInFlow),
  credentials: () => import("../credentials/flow.js").then((module) => module.credentials as SignInFlow),
}

/**
 * The flow that serves a provider object: the one it carries, else the built-in flow of its
 * `type`.
 *
 * @throws {Configuration} when the `type` has no built-in flow (a passkey provider must come
 *   from `Passkey()`, which carries its flow).
 */
export async function builtInFlow(config: Readonly<Record<string, unknown>>, id: string): Promise<SignInFlow> {
  const carried = flowOf(config)
  if (carried !== undefined) return carried
  const { type } = config
  const load = typeof type === "string" && Object.hasOwn(BUILT_IN, type) ? BUILT_IN[type] : undefined
  if (load !== undefined) return load()
  if (type === "webauthn") {
    throw new Configuration(`Provider "${id}" has type "webauthn": create it with \`Passkey()\` or \`WebAuthn()\` from @portcullis/providers, which bring the passkey flow.`)
  }
  throw new Configuration(`Provider "${id}" has an unknown \`type\`: use "oauth", "oidc", "email" or "credentials".`)
}

/** The providers of a configuration: those that serve, and those left out for a missing value. */
export interface NormalisedProviders {
  providers: FlowProvider[]
  /** By id, the error each incomplete provider's routes answer with (see `InternalConfig.unavailable`). */
  unavailable: Map<string, Configuration>
  /** The secrets the incomplete providers were given (a client secret): no log line shows them either. */
  unavailableSecrets: string[]
}

/**
 * Each provider, as the read stage handed it on, configured by the flow that serves it (its own,
 * or the built-in one of its type); one that lacks a value it needs (what its factory says it
 * lacks, and what its flow's `missing` finds) is left out, as an entry of `unavailable` naming
 * each value to set. An app configured from the environment with only some providers' variables
 * set keeps signing in with those.
 *
 * @throws {Configuration} naming the provider and the option to fix, when a value is present but unusable.
 */
export async function normaliseProviders(providers: ReadOptions["providers"], setup: ProviderSetup): Promise<NormalisedProviders> {
  const out: NormalisedProviders = { providers: [], unavailable: new Map(), unavailableSecrets: [] }
  for (const { config, id } of providers) {
    const flow = await builtInFlow(config, id)
    const carried = incompleteProblem(config)
    const missing = [...(carried === undefined ? [] : [carried]), ...(flow.missing?.(config, setup.env) ?? [])]
    if (missing.length === 0) {
      out.providers.push(await configureProvider(config, id, flow, setup))
      continue
    }
    out.unavailable.set(id, new Configuration(`${id}: ${missing.join("; ")}.`))
    out.unavailableSecrets.push(...givenSecrets(config, setup.env))
  }
  return out
}

/** The secrets of a provider not configured by its flow, found where every provider keeps them: `clientSecret`, or `AUTH_<ID>_SECRET`. */
function givenSecrets(config: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): string[] {
  return [config.clientSecret, env[envName(String(config.id), "SECRET")]].filter((value) => typeof value === "string")
}

const PROVIDER_TYPES: ReadonlySet<string> = new Set(["oauth", "oidc", "email", "credentials", "webauthn"])

/**
 * A provider configuration as the routes use it, configured by its flow.
 *
 * @throws {Configuration} from the flow's `configure`, or when `type` is not a provider type.
 */
export async function configureProvider(config: Readonly<Record<string, unknown>>, id: string, flow: SignInFlow, setup: ProviderSetup): Promise<FlowProvider> {
  const { type, name, style } = config
  if (typeof type !== "string" || !PROVIDER_TYPES.has(type)) {
    throw new Configuration(`Provider "${id}" carries the ${flow.name} flow but has no valid \`type\`.`)
  }
  if (style !== undefined && !isRecord(style)) throw new Configuration(`\`providers["${id}"].style\` must be an object.`)
  return {
    id,
    name: typeof name === "string" && name !== "" ? name : id,
    type: type as ProviderType,
    style: isRecord(style) ? { ...style } : {},
    flow,
    options: await flow.configure(config, setup.env, setup),
  }
}

interface LazyOptions {
  config: Readonly<Record<string, unknown>>
  env: Readonly<Record<string, string | undefined>>
  setup: ProviderSetup | undefined
}

/** The loaded flow and its configuration, once per configured provider. */
const loaded = new WeakMap<LazyOptions, Promise<FlowProvider>>()

/**
 * A flow whose code is fetched on first use, for a provider that carries a flow only in one of
 * its variants (`Twitter({ version: "1.0A" })`): an app that never uses that variant loads none
 * of its code (a code-splitting bundler puts it in a chunk of its own). The provider's
 * configuration is checked on first use, when the flow's code is there; its secrets are kept
 * out of logs from the start, found where every provider keeps them (`clientSecret`, or
 * `AUTH_<ID>_SECRET`).
 *
 * @example
 * ```ts
 * [FLOW]: lazyFlow({ name: "OAuth 1.0a", load: () => import("@portcullis/core/oauth1").then((m) => m.oauth1), adapterMethods })
 * ```
 *
 * A flow whose `adapterMethods` include `linkAccount` links accounts at its provider: the user may
 * unlink them, and they count as ways to sign in (see `SignInFlow.accounts`).
 */
export function lazyFlow(spec: {
  name: string
  load: () => Promise<SignInFlow<never>>
  /** The adapter methods the flow calls, checked at configuration time as for any flow. */
  adapterMethods?: readonly AdapterMethod[]
}): SignInFlow<LazyOptions> {
  const resolve = (provider: FlowProvider<LazyOptions>): Promise<FlowProvider> => {
    let ready = loaded.get(provider.options)
    if (ready === undefined) {
      ready = spec.load().then(async (flow) => {
        const real = flow as unknown as SignInFlow
        return { ...provider, flow: real, options: await real.configure(provider.options.config, provider.options.env, provider.options.setup) }
      })
      // A failed load or configuration is reported on this request and tried again on the next.
      ready.catch(() => loaded.delete(provider.options))
      loaded.set(provider.options, ready)
    }
    return ready
  }
  // A flow that links accounts (its adapter methods say so) has accounts the user may unlink.
  const linksAccounts = spec.adapterMethods?.includes("linkAccount") === true
  return {
    name: spec.name,
    configure: (config, env, setup) => ({ config, env, setup }),
    adapterMethods: () => [...(spec.adapterMethods ?? [])],
    secrets: ({ config, env }) => givenSecrets(config, env),
    draw: () => ({ kind: "button" }),
    signIn: async (context, provider, request) => {
      const real = await resolve(provider)
      return real.flow.signIn(context, real, request)
    },
    callback: async (context, provider) => {
      const real = await resolve(provider)
      return real.flow.callback(context, real)
    },
    ...(linksAccounts
      ? {
          accounts: {
            unlinked: async (context, provider, account) => {
              const real = await resolve(provider)
              await real.flow.accounts?.unlinked?.(context, real, account)
            },
          },
        }
      : {}),
  }
}
