/**
 * The keys under which a provider configuration carries what core reads of it besides its
 * options: the sign-in flow that serves it, and what it lacks to work. Their own module, imported
 * by the provider types and by the flow registry alike.
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
