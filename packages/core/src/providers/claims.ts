import type { User } from "../model.js"

/** The standard OpenID Connect claims a user is made of (OpenID Connect Core 5.1). */
export interface StandardClaims {
  sub?: unknown
  name?: unknown
  given_name?: unknown
  family_name?: unknown
  preferred_username?: unknown
  email?: unknown
  picture?: unknown
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined
}

/**
 * Maps standard claims to the session user: `sub` as id, `name` (else given and family name,
 * else the preferred username), `email`, `picture`; `null` for what is missing.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims
 * @example
 * ```ts
 * profile: (claims) => userFromClaims(claims)
 * ```
 */
export function userFromClaims(claims: StandardClaims): User {
  const fullName = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ")
  const user: User = {
    name: text(claims.name) ?? (fullName === "" ? undefined : fullName) ?? text(claims.preferred_username) ?? null,
    email: text(claims.email) ?? null,
    image: text(claims.picture) ?? null,
  }
  const id = text(claims.sub)
  if (id !== undefined) user.id = id
  return user
}
