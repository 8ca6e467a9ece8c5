/**
 * The example's settings, read from environment variables once at start. Every value is
 * checked here, where it becomes typed, and a bad one fails the start naming the variable.
 */
import { randomBytes } from "node:crypto"

import type { SessionStrategy } from "@portcullis/core"

/** Environment variables as the settings read them; an empty string counts as unset. */
export type Env = Readonly<Record<string, string | undefined>>

/** A setting that cannot be used; the message names the environment variable to fix. */
export class SettingsError extends Error {
  override readonly name = "SettingsError"
}

/** The value of `name`, or `undefined` when it is unset or empty (a copied `.env.example` line). */
export function readVariable(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === undefined || value === "" ? undefined : value
}

/** Whether the app runs in production mode (`NODE_ENV=production`). */
export function isProduction(env: Env): boolean {
  return readVariable(env, "NODE_ENV") === "production"
}

/** A new random secret for `AUTH_SECRET`: 32 bytes, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url")
}

/** The secret that seals sessions, and a warning to print when it was made up at start. */
export interface ResolvedSecret {
  secret: string
  warning: string | undefined
}

/**
 * `AUTH_SECRET`; in development a random one when it is unset (`pnpm dev` saves one in `.env` at
 * its first start, so this is for a start from code without one).
 *
 * @throws {SettingsError} in production mode when `AUTH_SECRET` is unset.
 */
export function resolveSecret(env: Env): ResolvedSecret {
  const secret = readVariable(env, "AUTH_SECRET")
  if (secret !== undefined) return { secret, warning: undefined }
  if (isProduction(env)) {
    throw new SettingsError(
      "AUTH_SECRET is not set. With NODE_ENV=production the example needs a fixed secret: generate one with `openssl rand -base64 32` and set AUTH_SECRET (in the environment or apps/example/.env).",
    )
  }
  return {
    secret: generateSecret(),
    warning:
      "AUTH_SECRET is not set, so a random one was generated for this run: sessions end when the app restarts. Set AUTH_SECRET in apps/example/.env (`openssl rand -base64 32`) to keep them.",
  }
}

/**
 * `AUTH_SESSION_STRATEGY`: `"database"` (the default, sessions in the memory adapter) or `"jwt"`.
 *
 * @throws {SettingsError} for any other value.
 */
export function readSessionStrategy(env: Env): SessionStrategy {
  const value = readVariable(env, "AUTH_SESSION_STRATEGY") ?? "database"
  if (value !== "database" && value !== "jwt") {
    throw new SettingsError(`AUTH_SESSION_STRATEGY must be "database" or "jwt", got "${value}".`)
  }
  return value
}

/**
 * A TCP port from `name`, or `fallback` when it is unset; `0` asks for any free port.
 *
 * @throws {SettingsError} when the value is not an integer from 0 to 65535.
 */
export function readPort(env: Env, name: string, fallback: number): number {
  const value = readVariable(env, name)
  if (value === undefined) return fallback
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN
  if (!(port >= 0 && port <= 65_535)) throw new SettingsError(`${name} must be a port number from 0 to 65535, got "${value}".`)
  return port
}

/** A seeded user's password, and whether it was made up at start (and so must be shown to the user). */
export interface SeededPassword {
  password: string
  generated: boolean
}

/** The demo user's password (see {@link resolveDemoPassword}). */
export type DemoPassword = SeededPassword

/** The bounds a seeded user's password variable is held to, and how its length is counted. */
export interface PasswordBounds {
  min: number
  max: number
  /** Random bytes of a made-up password, written as hex. */
  randomBytes: number
  /** Default: UTF-16 code units (`string.length`). */
  length?: (password: string) => number
}

/**
 * The password in `variable`, or a random one made at start (printed by `pnpm dev`), so that no
 * password anyone could look up signs in to a running example.
 *
 * @throws {SettingsError} when the variable's password is outside `bounds`, naming the variable but not the value.
 */
export function resolveSeededPassword(env: Env, variable: string, bounds: PasswordBounds): SeededPassword {
  const password = readVariable(env, variable)
  if (password === undefined) return { password: randomBytes(bounds.randomBytes).toString("hex"), generated: true }
  const length = (bounds.length ?? ((value: string) => value.length))(password)
  if (length < bounds.min || length > bounds.max) {
    throw new SettingsError(`${variable} must be ${bounds.min} to ${bounds.max} characters long, got ${length}.`)
  }
  return { password, generated: false }
}

/**
 * `DEMO_USER_PASSWORD`, or a random password made at start.
 *
 * @throws {SettingsError} when `DEMO_USER_PASSWORD` is shorter than 8 or longer than 128 characters.
 */
export function resolveDemoPassword(env: Env): DemoPassword {
  return resolveSeededPassword(env, "DEMO_USER_PASSWORD", { min: 8, max: 128, randomBytes: 12 })
}
