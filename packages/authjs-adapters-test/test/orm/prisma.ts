/**
 * `@auth/prisma-adapter` on Prisma 7 with its node-postgres driver adapter (`@prisma/adapter-pg`),
 * the set-up Prisma 7 requires, over the client generated from schema.prisma (global set-up).
 */
import { readFileSync } from "node:fs"
import { PrismaAdapter } from "@auth/prisma-adapter"
import { PrismaPg } from "@prisma/adapter-pg"
import { PrismaClient } from "../../node_modules/.cache/prisma-client/client.js"

/** The SQL for schema.prisma's tables. */
export const PRISMA_SQL = readFileSync(new URL("prisma.sql", import.meta.url), "utf8")

/** Auth.js's Prisma adapter over a client on `connectionString`. */
export function prismaAdapter(connectionString: string): { adapter: ReturnType<typeof PrismaAdapter>; close(): Promise<void> } {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString }) })
  return { adapter: PrismaAdapter(prisma), close: () => prisma.$disconnect() }
}
