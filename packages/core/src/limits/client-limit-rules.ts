/**
 * The per-client limits' rules (`rateLimit.perClient`): which route group each one counts, and
 * its default allowance. Types and data only, so the configuration check and the limiter (both
 * loaded on demand) share them without importing each other.
 */

/** A route group counted per client. */
export type ClientRule = "signIn" | "callback" | "passkeyOptions" | "sessionUpdate" | "password"

/** How many requests of one group a client may make in a window. */
export interface ClientWindow {
  limit: number
  windowSeconds: number
}

/** The rules in the order they are documented. */
export const CLIENT_RULES: readonly ClientRule[] = ["signIn", "callback", "passkeyOptions", "sessionUpdate", "password"]

/**
 * The defaults, far above what a person does by hand (a sign-in start every two seconds for a
 * minute) and far below what a script needs to flood a provider, an inbox or the adapter.
 */
export const CLIENT_DEFAULTS: Readonly<Record<ClientRule, ClientWindow>> = {
  signIn: { limit: 30, windowSeconds: 60 },
  callback: { limit: 60, windowSeconds: 60 },
  passkeyOptions: { limit: 30, windowSeconds: 60 },
  sessionUpdate: { limit: 60, windowSeconds: 60 },
  // Each runs the password hash or sends a mail: a person signs up or resets a few times, a script thousands.
  password: { limit: 10, windowSeconds: 60 },
}

/** `rateLimit.perClient` as read: a rule's own window, `false` for a rule turned off, absent for the default. */
export type ClientLimits = Partial<Record<ClientRule, ClientWindow | false>>
