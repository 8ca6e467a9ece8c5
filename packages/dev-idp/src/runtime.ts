import type * as OidcProvider from "oidc-provider"

/** oidc-provider's warning on Node.js 20 (bold red on a terminal), printed when the module is first evaluated. */
const UNSUPPORTED_RUNTIME = "oidc-provider WARNING: Unsupported runtime."

let loading: Promise<typeof OidcProvider> | undefined

/**
 * Loads oidc-provider once, without its "Unsupported runtime" warning.
 *
 * oidc-provider prints that warning on every Node.js release line older than 22 ("Jod"), though
 * it declares no `engines` limit and works there. The dev IdP supports Node.js 20.19
 * or later, like the other packages, and its whole test suite (every end-to-end sign-in in the
 * repository) runs on Node.js 20: the warning is about oidc-provider's support policy, not a
 * known fault, and would only make every developer wonder at each start. Only that one line is
 * dropped, and only while the module evaluates; anything else printed then passes through.
 */
export function loadOidcProvider(): Promise<typeof OidcProvider> {
  loading ??= (async () => {
    const warn = console.warn
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === "string" && args[0].includes(UNSUPPORTED_RUNTIME)) return
      warn.apply(console, args)
    }
    try {
      return await import("oidc-provider")
    } finally {
      console.warn = warn
    }
  })()
  return loading
}
