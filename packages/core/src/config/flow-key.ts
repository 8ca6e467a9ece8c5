/**
 * The keys under which a provider configuration carries what core reads of it besides its
 * options: the sign-in flow that serves it, what it lacks to work, and the `fetch` its outbound
 * requests go through. Their own module, imported by the provider types, the flow registry and
 * the entries that export them alike.
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
