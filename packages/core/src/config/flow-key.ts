/**
 * The keys under which a provider configuration carries what core reads of it besides its
 * options: the sign-in flow that serves it, what it lacks to work (with the two functions that
 * write and read that mark), and the `fetch` its outbound requests go through. Their own module,
 * imported by the provider types, the provider kit, the flow registry and the entries that export
 * them alike, and importing nothing: the kit marks a configuration without loading the flows.
 */

/**
 * The key under which a provider configuration carries its `SignInFlow`. Registered with
 * `Symbol.for`, so a provider and the core it runs on agree whichever releases they are.
 */
export const FLOW: unique symbol = Symbol.for("@portcullis/core/flow")

/**
 * The key under which a provider configuration carries what it lacks to work (an issuer, an API
 * key), as what to set: core leaves such a provider out instead of failing every other one.
 * Registered with `Symbol.for`, as {@link FLOW} is.
 */
export const INCOMPLETE: unique symbol = Symbol.for("@portcullis/core/incomplete")

/**
 * A copy of a provider configuration that says what it lacks: a factory returns it instead of
 * throwing when a value it needs is missing, so an app that calls the factory at import time
 * still starts, and `Auth()` leaves only this provider out (logging `problem` once). The marker
 * travels with copies of the configuration (`{ ...Okta(), name }`) as its flow does.
 *
 * @param problem what to set, naming the option (and its variable, where it has one) and what
 *   the value is, e.g. "set `apiKey` (your Acme API key)"; never a value.
 * @example
 * ```ts
 * const provider = oauthProvider({ id: "acme", ... }, options)
 * return apiKey === undefined ? incompleteProvider(provider, "set `apiKey` (your Acme API key)") : provider
 * ```
 */
export function incompleteProvider<C extends object>(config: C, problem: string): C {
  const before = incompleteProblem(config)
  return { ...config, [INCOMPLETE]: before === undefined ? problem : `${before}; ${problem}` }
}

/** What a provider configuration says it lacks ({@link incompleteProvider}), if anything. */
export function incompleteProblem(config: object): string | undefined {
  const problem = (config as { [INCOMPLETE]?: unknown })[INCOMPLETE]
  return typeof problem === "string" && problem !== "" ? problem : undefined
}

/**
 * The key of an OAuth provider's own `fetch`, as Auth.js's `customFetch`: every request to that
 * provider (discovery, keys, token, userinfo, revocation, and the `fetch` its `token.request` and
 * `userinfo.request` hooks get) goes through it, still aborted after the provider's `timeout`. For a
 * corporate proxy, logging or a provider that needs a request rewritten. Registered with
 * `Symbol.for`, as {@link FLOW} is.
 *
 * @example
 * ```ts
 * import { customFetch } from "@portcullis/core"
 * GitHub({ [customFetch]: (input, init) => undiciFetch(input, { ...init, dispatcher: proxyAgent }) })
 * ```
 */
export const customFetch: unique symbol = Symbol.for("@portcullis/core/custom-fetch")
