/**
 * `@auth/prisma-adapter` on Prisma 7 with its node-postgres driver adapter (`@prisma/adapter-pg`),
 * the set-up Prisma 7 requires, over the client generated from Auth.js's Prisma models before the
 * tests (scripts/generate-prisma.mjs).
 */
import { readFileSync } from "node:fs"
import { PrismaAdapter } from "@auth/prisma-adapter"
import { PrismaPg } from "@prisma/adapter-pg"
// A CommonJS module (prisma-client-js), imported as Node imports one: its exports are the default.
import generated from "../../node_modules/.cache/prisma-client/index.js"

const { PrismaClient } = generated

/** The SQL for the tables of Auth.js's Prisma models. */
export const PRISMA_SQL = readFileSync(new URL("prisma.sql", import.meta.url), "utf8")

/**
 * The client as `@auth/prisma-adapter`'s parameter types it. Ours is generated into this
 * package's own folder (so two packages never write one generated client at once): a second
 * declaration of the class `@prisma/client` types, which TypeScript takes for another type once
 * the type test has generated `@prisma/client`. How an app writes the call is compiled, with no
 * cast, by @portcullis/authjs-types-test.
 */
function asPrismaClient(client: object): Parameters<typeof PrismaAdapter>[0] {
  return client as Parameters<typeof PrismaAdapter>[0]
}

/** Auth.js's Prisma adapter over a client on `connectionString`. */
export function prismaAdapter(connectionString: string): { adapter: ReturnType<typeof PrismaAdapter>; close(): Promise<void> } {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString }) })
  return { adapter: PrismaAdapter(asPrismaClient(prisma)), close: () => prisma.$disconnect() }
}
