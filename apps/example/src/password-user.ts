/**
 * The password user: an account of core's own password accounts (`@portcullis/providers/password`),
 * seeded at start with its address confirmed, beside the demo user the app checks itself.
 */
import type { AdapterUser } from "@portcullis/core/adapters"

import { resolveSeededPassword, type Env, type SeededPassword } from "./settings.js"

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

/**
 * `PASSWORD_USER_PASSWORD`, or a random password made at start (32 hex digits: past core's
 * default minimum of 15, and in no list of common passwords). A seeded hash skips the rules a
 * new password passes, so the variable is held to their length bounds here, counted as core
 * counts: code points after NFKC.
 *
 * @throws {SettingsError} when `PASSWORD_USER_PASSWORD` is shorter than 15 or longer than 256 characters.
 */
export function resolvePasswordUserPassword(env: Env): SeededPassword {
  return resolveSeededPassword(env, "PASSWORD_USER_PASSWORD", { min: 15, max: 256, randomBytes: 16, length: (password) => Array.from(password.normalize("NFKC")).length })
}
