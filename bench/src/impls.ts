/**
 * The two implementations under test, configured identically: the same OIDC provider (with
 * PKCE, state and nonce), secret, session strategy and store.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth as ours } from "@portcullis/core"
import { Auth as theirs } from "authjs-core"

export type Strategy = "jwt" | "database"

export interface Impl {
  name: "ours" | "Auth.js"
  handle: (request: Request) => Promise<Response>
}

export const ORIGIN = "http://localhost:3000"
export const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
export const CLIENT = { id: "bench-client", secret: "bench-client-secret" }

function provider(issuer: string) {
  return {
    id: "bench",
    name: "Bench IdP",
    type: "oidc" as const,
    issuer,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    checks: ["pkce", "state", "nonce"] as ("pkce" | "state" | "nonce")[],
    // Ours refuses plain http unless told it is a loopback test provider; Auth.js allows it always.
    allowInsecureLoopbackRequests: true,
  }
}

/** One implementation's configuration; each gets its own, so neither shares the other's store. */
function config(issuer: string, strategy: Strategy) {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    session: { strategy },
    providers: [provider(issuer)],
    logger: { error: () => undefined, warn: () => undefined, debug: () => undefined },
    ...(strategy === "database" ? { adapter: MemoryAdapter() } : {}),
  }
}

/** Both implementations with the same configuration. */
export function implementations(issuer: string, strategy: Strategy): Impl[] {
  const ourConfig = config(issuer, strategy)
  const theirConfig = config(issuer, strategy)
  return [
    { name: "ours", handle: (request) => ours(request, ourConfig) },
    // The peer types its Response as its own interface; at runtime it is the global Response.
    { name: "Auth.js", handle: (request) => theirs(request, theirConfig as never) as unknown as Promise<Response> },
  ]
}
