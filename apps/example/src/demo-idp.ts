/**
 * The Dev IdP: a real OpenID Provider on 127.0.0.1 (`@portcullis/dev-idp`), started next to the app
 * so that signing in works offline, with no OAuth app registered anywhere.
 */
import { randomBytes } from "node:crypto"

import type { OIDCConfig } from "@portcullis/core/providers"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"

import { AUTH_BASE_PATH } from "./auth.js"

/** The provider id: the callback URL is `<app>/api/auth/callback/demo`. */
export const DEMO_PROVIDER_ID = "demo"

/** A started Dev IdP and the provider that signs in with it. */
export interface DemoIdp {
  idp: DevIdp
  provider: OIDCConfig
  /** Set when the preferred port was taken and another one was used. */
  warning: string | undefined
}

/** Options of {@link startDemoIdp}. */
export interface DemoIdpOptions {
  /** The port to try first; `0` takes any free one. */
  port: number
  /** The app origins the IdP may send the browser back to. */
  appOrigins: string[]
  /**
   * Seconds an access token of the Dev IdP lives. Default 5 minutes: short, so the "Provider
   * token" page shows a refresh within minutes (core refreshes within 60 seconds of expiry).
   */
  accessTokenTtl?: number
}

function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "EADDRINUSE"
}

/**
 * Starts the Dev IdP on `port`, or on a free port when that one is taken (the app learns the
 * issuer at start, so any port works; a fixed one only makes the URL easier to recognise).
 *
 * @throws Error when the IdP cannot start for another reason than a taken port.
 */
export async function startDemoIdp(options: DemoIdpOptions): Promise<DemoIdp> {
  // Made up per run: the IdP and the app are started together and never meet anyone else.
  const client = { id: "example-app", secret: randomBytes(24).toString("base64url") }
  const start = (port: number) =>
    startDevIdp({
      port,
      // The app sends the sign-in's ID token with its sign-out: the IdP ends its session at once.
      logoutConfirmation: "auto",
      accessTokenTtl: options.accessTokenTtl ?? 300,
      clients: [
        {
          client_id: client.id,
          client_secret: client.secret,
          client_name: "the Auth example app",
          redirect_uris: options.appOrigins.map((origin) => `${origin}${AUTH_BASE_PATH}/callback/${DEMO_PROVIDER_ID}`),
          post_logout_redirect_uris: options.appOrigins.map((origin) => `${origin}${AUTH_BASE_PATH}/signout/callback/${DEMO_PROVIDER_ID}`),
          // Refresh tokens, rotated on each use (reusing one revokes the grant), for the token page.
          grant_types: ["authorization_code", "refresh_token"],
        },
      ],
    })
  let idp: DevIdp
  let warning: string | undefined
  try {
    idp = await start(options.port)
  } catch (error) {
    if (!isAddressInUse(error) || options.port === 0) throw error
    idp = await start(0)
    warning = `Port ${options.port} is taken, so the Dev IdP listens on ${idp.issuer} instead (set DEV_IDP_PORT to choose another).`
  }
  return {
    idp,
    warning,
    provider: {
      id: DEMO_PROVIDER_ID,
      name: "Dev IdP",
      type: "oidc",
      issuer: idp.issuer,
      clientId: client.id,
      clientSecret: client.secret,
      checks: ["pkce", "state", "nonce"],
      // Signing out of the app ends the IdP's session too (OpenID Connect RP-initiated logout):
      // otherwise it would sign the previous account straight back in, and nobody could switch.
      endSessionOnSignOut: true,
      // The IdP speaks plain http on 127.0.0.1; core refuses http anywhere but loopback.
      allowInsecureLoopbackRequests: true,
      style: { brandColor: "#2f5bd3" },
    },
  }
}
