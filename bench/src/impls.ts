/**
 * The two implementations under test, configured identically: the same OIDC provider (with
 * PKCE, state and nonce), secret, session strategy and store.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth as ours, getAccessToken } from "@portcullis/core"
import { Auth as theirs } from "authjs-core"

/**
 * `jwt-records`: JWT sessions with an adapter, so each sign-in keeps a session record that a read
 * checks for revocation (ours; `checkEvery` seconds, 0 on every read). Auth.js keeps no records:
 * its JWT read with an adapter is its plain JWT read.
 */
export type Strategy = "jwt" | "database" | "jwt-records"

export interface Impl {
  name: "ours" | "Auth.js"
  handle: (request: Request) => Promise<Response>
  /**
   * The signed-in user's access token at the bench provider, as an app gets it: ours through
   * `getAccessToken`; Auth.js has none, so its apps read the session and look the account up in
   * the store (`database` strategy only).
   */
  accessToken?: (request: Request) => Promise<string | undefined>
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
function config(issuer: string, strategy: Strategy, checkEvery?: number) {
  const adapter = strategy === "jwt" ? undefined : MemoryAdapter()
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    session: { strategy: strategy === "database" ? ("database" as const) : ("jwt" as const), ...(checkEvery === undefined ? {} : { revocationCheckInterval: checkEvery }) },
    providers: [provider(issuer)],
    logger: { error: () => undefined, warn: () => undefined, debug: () => undefined },
    ...(adapter === undefined ? {} : { adapter }),
  }
}

/**
 * What the assurance features add to ours for a read (issues 37 and 38): second factors
 * configured (`mfa`, whose gate runs only at sign-in) and an idle timeout beside the absolute
 * lifetime every session has. Auth.js has neither, so its configuration stays the same.
 */
export interface Assurance {
  idleTimeout: number
}

/** Both implementations with the same configuration. */
export function implementations(issuer: string, strategy: Strategy, checkEvery?: number, assurance?: Assurance): Impl[] {
  // With records, ours also knows the client's address, so its per-client limits are on too (a
  // session read is not one of their routes: this shows what knowing the address costs a read).
  const base = config(issuer, strategy, checkEvery)
  const ourConfig = {
    ...base,
    ...(strategy === "jwt-records" ? { clientAddress: () => "203.0.113.7" } : {}),
    ...(assurance === undefined ? {} : { mfa: {}, session: { ...base.session, idleTimeout: assurance.idleTimeout } }),
  }
  const theirConfig = config(issuer, strategy)
  const theirHandle = (request: Request) => theirs(request, theirConfig as never) as unknown as Promise<Response>
  const theirStore = theirConfig.adapter
  return [
    {
      name: "ours",
      handle: (request) => ours(request, ourConfig),
      accessToken: async (request) => (await getAccessToken(request, ourConfig, "bench"))?.accessToken,
    },
    // The peer types its Response as its own interface; at runtime it is the global Response.
    {
      name: "Auth.js",
      handle: theirHandle,
      // What an Auth.js app does for the token: read the session, then find the user's account in the store.
      accessToken: async (request) => {
        const session = (await (await theirHandle(new Request(new URL("/api/auth/session", request.url), { headers: request.headers }))).json()) as { user?: { email?: string } } | null
        const user = session?.user?.email === undefined || theirStore === undefined ? null : await theirStore.getUserByEmail(session.user.email)
        if (user === null || theirStore === undefined) return undefined
        return (await theirStore.listAccountsByUserId(user.id)).find((account) => account.provider === "bench")?.access_token
      },
    },
  ]
}
