/**
 * Sign-in flows that not every app needs (OAuth 1.0a, WebAuthn). Their code is not reachable
 * from `Auth()`: the provider's factory hands its flow to core under {@link FLOW}, so an app
 * bundles only the flows of the providers it imports. The built-in flows (OAuth 2.0 / OpenID
 * Connect, email, credentials) are served directly.
 */
import type { AdapterMethod } from "./adapters.js"
import type { RequestContext } from "./context.js"
import { Configuration } from "./errors.js"
import { envName, isRecord } from "./options.js"
import type { ProviderButtonStyles, ProviderType } from "./providers/index.js"

/**
 * The key under which a provider configuration carries its {@link SignInFlow}. Registered with
 * `Symbol.for`, so a provider and the core it runs on agree whichever releases they are.
 */
export const FLOW: unique symbol = Symbol.for("@portcullis/core/flow")

/** A provider served by a {@link SignInFlow}, as the routes see it. */
export interface FlowProvider<Options = unknown> {
  id: string
  name: string
  type: "flow"
  /** The type the provider declares (`"oauth"` for OAuth 1.0a, `"webauthn"`), as `GET /providers` reports it. */
  providerType: ProviderType
  style: ProviderButtonStyles
  flow: SignInFlow<Options>
  /** What the flow's `configure` made of the provider's configuration. */
  options: Options
}

/** A route a flow adds under `basePath`: `{basePath}/<name>/:id`, by method. */
export type FlowRoute<Options> = Partial<Record<"GET" | "POST", (context: RequestContext, provider: FlowProvider<Options>) => Promise<Response>>>

/** What a flow implements; `Auth()` calls it for the providers that carry it. */
export interface SignInFlow<Options = unknown> {
  /** The flow's name in messages, e.g. `"OAuth 1.0a"`. */
  name: string
  /**
   * Checks and normalises a provider's configuration, once per configuration.
   *
   * @throws {Configuration} naming the provider and the option to fix.
   */
  configure(config: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): Options
  /** The adapter methods a configuration with this provider calls; `Auth()` checks them up front. */
  adapterMethods?: (options: Options) => AdapterMethod[]
  /** The provider's own secrets (an API key secret): no log line shows them, as for an OAuth 2 client secret. */
  secrets?: (options: Options) => readonly string[]
  /**
   * Why the flow cannot work without an `adapter` (e.g. `"to store its passkeys"`), for a flow
   * that cannot: `Auth()` then refuses a configuration without one.
   */
  needsAdapter?: string
  /** `POST /signin/:id`, after the CSRF check: starts a sign-in. */
  signIn(context: RequestContext, provider: FlowProvider<Options>, request: { form: URLSearchParams; callbackUrl: string }): Promise<Response>
  /** `GET|POST /callback/:id`: completes a sign-in. */
  callback(context: RequestContext, provider: FlowProvider<Options>): Promise<Response>
  /** Further routes, by name (e.g. `"webauthn-options"`). */
  routes?: Readonly<Record<string, FlowRoute<Options>>>
  /**
   * Adds this provider's control to the built-in sign-in page (a flow that is not a redirect,
   * such as passkeys, shows no button there): gets the page as rendered and answers the page to
   * send. The flow owns everything it adds, the markup and the Content-Security-Policy that admits
   * its script, so an app without such a flow carries none of it.
   */
  page?: (context: RequestContext, provider: FlowProvider<Options>, response: Response, page: { csrfToken: string; callbackUrl: string | undefined }) => Promise<Response>
}

/** The flow a provider configuration carries, if any. */
export function flowOf(config: object): SignInFlow | undefined {
  const flow = (config as { [FLOW]?: unknown })[FLOW]
  return typeof flow === "object" && flow !== null && typeof (flow as SignInFlow).configure === "function" ? (flow as SignInFlow) : undefined
}

/**
 * A provider configuration that carries a flow, as the routes use it.
 *
 * @throws {Configuration} from the flow's `configure`, or when `type` is not a provider type.
 */
export function configureFlowProvider(config: Readonly<Record<string, unknown>>, id: string, flow: SignInFlow, env: Readonly<Record<string, string | undefined>>): FlowProvider {
  const { type, name, style } = config
  if (typeof type !== "string" || !PROVIDER_TYPES.has(type)) {
    throw new Configuration(`Provider "${id}" carries the ${flow.name} flow but has no valid \`type\`.`)
  }
  return {
    id,
    name: typeof name === "string" && name !== "" ? name : id,
    type: "flow",
    providerType: type as ProviderType,
    style: isRecord(style) ? { ...style } : {},
    flow,
    options: flow.configure(config, env),
  }
}

const PROVIDER_TYPES: ReadonlySet<string> = new Set(["oauth", "oidc", "email", "credentials", "webauthn"])

interface LazyOptions {
  config: Readonly<Record<string, unknown>>
  env: Readonly<Record<string, string | undefined>>
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
      ready = spec.load().then((flow) => {
        const real = flow as unknown as SignInFlow
        return { ...provider, flow: real, options: real.configure(provider.options.config, provider.options.env) }
      })
      // A failed load or configuration is reported on this request and tried again on the next.
      ready.catch(() => loaded.delete(provider.options))
      loaded.set(provider.options, ready)
    }
    return ready
  }
  return {
    name: spec.name,
    configure: (config, env) => ({ config, env }),
    adapterMethods: () => [...(spec.adapterMethods ?? [])],
    secrets: ({ config, env }) => [config.clientSecret, env[envName(String(config.id), "SECRET")]].filter((value) => typeof value === "string"),
    signIn: async (context, provider, request) => {
      const real = await resolve(provider)
      return real.flow.signIn(context, real, request)
    },
    callback: async (context, provider) => {
      const real = await resolve(provider)
      return real.flow.callback(context, real)
    },
  }
}
