/**
 * Type test, compiled by `pnpm typecheck` (tsconfig.json here) and never run: the module
 * augmentation Auth.js documents reaches the types `Auth()`, its callbacks and `getToken` use.
 * Its own program, because an augmentation changes those types for every file compiled with it.
 */
import { Auth } from "@portcullis/core"
import { getToken } from "@portcullis/core/jwt"
import type { DefaultSession, Session, User } from "@portcullis/core/types"

declare module "@portcullis/core/types" {
  interface Session {
    user?: { role?: "admin" | "member" } & DefaultSession["user"]
    plan?: "free" | "pro"
  }
  interface User {
    role?: "admin" | "member"
  }
}

declare module "@portcullis/core/jwt" {
  interface JWT {
    role?: "admin" | "member"
  }
}

export async function handle(request: Request): Promise<Response> {
  return Auth(request, {
    providers: [],
    callbacks: {
      jwt({ token, user }) {
        // User's augmentation flows into the jwt callback's `user`...
        const role: "admin" | "member" | undefined = (user as User | undefined)?.role
        // ...and JWT's into its token: without it, `token.role` would be `unknown`.
        token.role = role
        // @ts-expect-error -- the augmented claim only takes the declared roles.
        token.role = "owner"
        return token
      },
      session({ session, token }) {
        const role: "admin" | "member" | undefined = token.role
        // @ts-expect-error -- the augmented field only takes the declared plans.
        session.plan = "enterprise"
        return { ...session, plan: "pro", user: { ...session.user, role } }
      },
    },
  })
}

export async function read(request: Request): Promise<"admin" | "member" | undefined> {
  const token = await getToken({ req: request, secret: "s".repeat(32) })
  return token?.role
}

export function planOf(session: Session): "free" | "pro" | undefined {
  return session.plan
}
