/**
 * The example's `AuthConfig`: the providers, the memory adapter and the session strategy.
 */
import type { Adapter, AuthConfig, LoggerInstance, MailOptions, Provider, SessionStrategy } from "@portcullis/core"
import { MemoryAdapter } from "@portcullis/adapter-memory"

import { DEMO_USER } from "./demo-user.js"

/** Where `Auth()` is mounted; the client script and the pages link here. */
export const AUTH_BASE_PATH = "/api/auth"

/** Options of {@link createAuthConfig}. */
export interface AuthOptions {
  providers: Provider[]
  secret: string
  sessionStrategy: SessionStrategy
  /**
   * Default: a fresh `MemoryAdapter()` holding the demo user, so users, accounts and sessions
   * live as long as the process.
   */
  adapter?: Adapter
  /** The app's URL: every link that leaves the server (sign-in emails, `redirect_uri`) is built from it. */
  url: string
  /** Other origins the same server answers on (the loopback address under its other name). */
  allowedOrigins?: string[]
  /** Default: core's console logger. */
  logger?: Partial<LoggerInstance>
  /** Core's other mails (notices, address changes): default, the email provider's transport (SMTP), if any. */
  mail?: MailOptions["send"]
}

/** Builds the configuration every `Auth()` call of the app uses (one object: core caches its checks per object). */
export function createAuthConfig(options: AuthOptions): AuthConfig {
  return {
    providers: options.providers,
    secret: options.secret,
    // Seeded with the demo user: a database session can only refer to a user the adapter stores.
    adapter: options.adapter ?? MemoryAdapter({ users: [DEMO_USER] }),
    session: { strategy: options.sessionStrategy },
    basePath: AUTH_BASE_PATH,
    // The safe set-up: links that leave the server are built from the configured URL, never from
    // a Host header. `trustHost` only lets the Host header pick among the configured origins.
    url: options.url,
    allowedOrigins: options.allowedOrigins ?? [],
    trustHost: true,
    // The name its own pages carry, on core's pages too, linked back to its home page.
    theme: { colorScheme: "auto", brandColor: "#2f5bd3", brandName: "Auth example", homeUrl: "/" },
    // Two-step sign-in with an authenticator app, which each user turns on from the settings page:
    // a user who did asks for a code after every way in (the adapter keeps the factors).
    mfa: { factors: ["totp"] },
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.mail === undefined ? {} : { mail: { send: options.mail } }),
  }
}
