/**
 * The augmentation Auth.js's guides show for a user column the app added (`role`), with its
 * import moved to ours: Auth.js's adapters still fit, and the database session callback's `user`
 * carries the field. Its own program (tsconfig.json here), because an augmentation changes
 * `AdapterUser` for every file compiled with it.
 */
import { PrismaAdapter } from "@auth/prisma-adapter"
import { PrismaPg } from "@prisma/adapter-pg"
import { PrismaClient } from "@prisma/client"
import type { AuthConfig } from "@portcullis/core"

declare module "@portcullis/core/adapters" {
  interface AdapterUser {
    role: "admin" | "member"
  }
}

const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) })

export const config: AuthConfig = {
  adapter: PrismaAdapter(prisma),
  providers: [],
  session: { strategy: "database" },
  callbacks: {
    session({ session, user }) {
      const role: "admin" | "member" = user.role
      // @ts-expect-error -- the augmented field only takes the declared roles.
      user.role = "owner"
      return { ...session, user: { ...session.user, role } }
    },
  },
}
