/**
 * The password user: an account of core's own password accounts (`@portcullis/providers/password`),
 * seeded at start with its address confirmed, beside the demo user the app checks itself.
 */
import { randomBytes } from "node:crypto"

import type { AdapterUser } from "@portcullis/core/adapters"

import { readVariable, SettingsError, type Env } from "./settings.js"

/**
 * The password user as the memory adapter stores it (a database gives it its own id). Its
 * address counts as confirmed: `Password()` signs in no one whose address is not.
 */
export const PASSWORD_USER: Readonly<AdapterUser & { email: string }> = {
  id: "password-user",
  name: "Password User",
  email: "password@example.com",
  emailVerified: new Date("2026-01-01T00:00:00Z"),
  image: null,
}

/** The password user's password, and whether it was made up at start (and so must be shown to the user). */
export interface PasswordUserPassword {
  password: string
  generated: boolean
}

/**
 * `PASSWORD_USER_PASSWORD`, or a random password made at start (printed by `pnpm dev`): no
 * password anyone could look up signs in to a running example. A seeded hash skips the rules a
 * new password passes, so the variable is held to their length bounds here.
 *
 * @throws {SettingsError} when `PASSWORD_USER_PASSWORD` is shorter than 15 or longer than 256 characters.
 */
export function resolvePasswordUserPassword(env: Env): PasswordUserPassword {
  const password = readVariable(env, "PASSWORD_USER_PASSWORD")
  // 32 hex digits: past core's default minimum of 15, and in no list of common passwords.
  if (password === undefined) return { password: randomBytes(16).toString("hex"), generated: true }
  // Counted as core counts a new password: code points after NFKC.
  const length = Array.from(password.normalize("NFKC")).length
  if (length < 15 || length > 256) {
    throw new SettingsError(`PASSWORD_USER_PASSWORD must be 15 to 256 characters long, got ${length}.`)
  }
  return { password, generated: false }
}
