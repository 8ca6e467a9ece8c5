/**
 * Provider objects the integration tests configure by hand, written once: a plain OAuth 2.0
 * provider whose endpoints sit at `https://acme.example` (tests that call them stub `fetch`).
 */

/** An OAuth 2.0 provider object as an app writes it by hand; `overrides` are laid over it. */
export function acmeOAuthProvider<O extends Record<string, unknown>>(overrides: O = {} as O) {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth" as const,
    clientId: "acme-client",
    clientSecret: "acme-secret",
    authorization: "https://acme.example/authorize",
    token: "https://acme.example/token",
    userinfo: "https://acme.example/userinfo",
    ...overrides,
  }
}
