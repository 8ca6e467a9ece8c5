/**
 * An app on Prisma 7 with its node-postgres driver adapter and `@auth/prisma-adapter`, with the
 * models Auth.js's Prisma guide documents (prisma/schema.prisma), after switching to Portcullis:
 * only the `@auth/core` import changed. The adapter comes from npm unchanged.
 */
import { PrismaAdapter } from "@auth/prisma-adapter"
import { PrismaPg } from "@prisma/adapter-pg"
import { PrismaClient } from "@prisma/client"
import { Auth, type AuthConfig } from "@portcullis/core"

const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) })

export const config: AuthConfig = {
  adapter: PrismaAdapter(prisma),
  providers: [],
  secret: process.env.AUTH_SECRET,
}

export const handler = (request: Request): Promise<Response> => Auth(request, config)
