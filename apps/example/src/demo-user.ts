/**
 * The demo user: a username and password the app checks itself (`@portcullis/providers/credentials`).
 * The user is stored in the app's adapter (seeded there), because a database session must refer to a stored user.
 */
import { createHash, timingSafeEqual } from "node:crypto"

import type { AdapterUser } from "@portcullis/core"
import type { CredentialsConfig } from "@portcullis/core/providers"
import Credentials from "@portcullis/providers/credentials"

/** The demo user's username on the sign-in form. */
export const DEMO_USERNAME = "demo"

/** The demo user as the memory adapter stores it: seed the adapter with it (a database gives it its own id). */
export const DEMO_USER: Readonly<AdapterUser> = {
  id: "demo-user",
  name: "Demo User",
  email: "demo@example.com",
  emailVerified: null,
  image: null,
}

/** Answers the demo user for the right username and password, and `null` for anything else. */
export type DemoUserCheck = (username: unknown, password: unknown) => AdapterUser | null

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest()

/**
 * Makes the check of the demo user's credentials. The password is compared as SHA-256 digests
 * with `timingSafeEqual`: equal lengths whatever was typed, and a time that does not say how
 * much of it was right. The username is public, so it is compared plainly (trimmed, any case).
 *
 * @example
 * ```ts
 * const check = createDemoUserCheck("s3cret-demo-password")
 * check("demo", "s3cret-demo-password") // DEMO_USER
 * check("demo", "guess") // null
 * ```
 *
 * @param user The demo user as the adapter stores it (default {@link DEMO_USER}): with a
 * database, the one carrying the id the database gave it.
 */
export function createDemoUserCheck(password: string, user: Readonly<AdapterUser> = DEMO_USER): DemoUserCheck {
  const expected = digest(password)
  return (username, given) => {
    if (typeof username !== "string" || typeof given !== "string") return null
    const passwordMatches = timingSafeEqual(digest(given), expected)
    return passwordMatches && username.trim().toLowerCase() === DEMO_USERNAME ? { ...user } : null
  }
}

const fields = {
  username: { label: "Username", placeholder: DEMO_USERNAME },
  password: { label: "Password", type: "password" },
}

/** The credentials provider of the demo user: its form is on core's sign-in page as "Sign in with Demo user". */
export function demoUserProvider(check: DemoUserCheck): CredentialsConfig<typeof fields> {
  return Credentials({
    name: "Demo user",
    credentials: fields,
    authorize: ({ username, password }) => check(username, password),
  })
}
