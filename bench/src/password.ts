/**
 * A password sign-in, ours against Auth.js's: `Password()` over the memory adapter (scrypt at our
 * defaults, N=2^14, r=8, p=5) against `Credentials({ authorize })` checking a bcrypt hash of cost
 * 10 with `bcryptjs`, as Auth.js's credentials guide does. Both to a JWT session; the browser's
 * side is the same: `GET /csrf`, then the form posted to `/callback/:id`.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth as ours } from "@portcullis/core"
import { hashPassword } from "@portcullis/core/password"
import Password from "@portcullis/providers/password"
import { Auth as theirs } from "authjs-core"
import Credentials from "authjs-core/providers/credentials"
import bcrypt from "bcryptjs"
import { ORIGIN, SECRET, type Impl } from "./impls.js"
import { Jar } from "./jar.js"

export const USER = { id: "bench-user", name: "Bench User", email: "bench@example.com" }
export const PASSWORD = "a bench password of some length"
/** Auth.js's credentials guide salts and hashes with bcrypt at cost 10. */
const BCRYPT_COST = 10

const quiet = { error: () => undefined, warn: () => undefined, debug: () => undefined }

/** Both implementations, each with one user whose password is {@link PASSWORD}. */
export async function passwordImplementations(): Promise<Impl[]> {
  const ourConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    session: { strategy: "jwt" as const },
    adapter: MemoryAdapter({
      users: [{ ...USER, emailVerified: new Date(0) }],
      passwordHashes: [{ userId: USER.id, hash: await hashPassword(PASSWORD) }],
    }),
    providers: [Password()],
    mail: { send: () => undefined },
    // The lockout counts failures only; the per-client limits are off, as no address is known.
    logger: quiet,
  }
  const stored = bcrypt.hashSync(PASSWORD, BCRYPT_COST)
  const theirConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    session: { strategy: "jwt" as const },
    providers: [
      Credentials({
        id: "password",
        credentials: { email: {}, password: { type: "password" } },
        authorize: async (credentials) => ((credentials.email === USER.email && (await bcrypt.compare(String(credentials.password), stored))) ? USER : null),
      }),
    ],
    logger: quiet,
  }
  return [
    { name: "ours", handle: (request) => ours(request, ourConfig) },
    { name: "Auth.js", handle: (request) => theirs(request, theirConfig as never) as unknown as Promise<Response> },
  ]
}

/** `GET /csrf`, then the password form posted to `/callback/password`; fails unless a session cookie comes back. */
export async function passwordSignIn(impl: Impl): Promise<void> {
  const jar = new Jar()
  const csrf = await impl.handle(new Request(`${ORIGIN}/api/auth/csrf`))
  jar.store(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await impl.handle(
    new Request(`${ORIGIN}/api/auth/callback/password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), origin: ORIGIN },
      body: new URLSearchParams({ csrfToken, email: USER.email, password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` }),
    }),
  )
  await response.arrayBuffer()
  const location = response.headers.get("location") ?? ""
  const cookies = response.headers.getSetCookie().join("\n")
  if (response.status !== 302 || location !== `${ORIGIN}/dashboard` || !/session-token=/u.test(cookies)) {
    throw new Error(`${impl.name}: password sign-in answered ${String(response.status)} ${location}`)
  }
}
