/**
 * The key under which a provider configuration carries the sign-in flow that serves it. Its own
 * module, imported by the provider types and by the flow registry alike.
 */

/**
 * The key under which a provider configuration carries its `SignInFlow`. Registered with
 * `Symbol.for`, so a provider and the core it runs on agree whichever releases they are.
 */
export const FLOW: unique symbol = Symbol.for("@portcullis/core/flow")
