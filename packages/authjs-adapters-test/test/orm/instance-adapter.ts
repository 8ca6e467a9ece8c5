/**
 * The adapter an app instance of the scale-out test runs (adapter-pg's test/instance.ts loads
 * this as its ADAPTER_MODULE): Auth.js's ORM adapter named by ORM_KIND, over the instance's pool.
 */
import type { Adapter } from "@portcullis/core/adapters"
import type pg from "pg"
import { drizzleAdapter } from "./drizzle.js"
import { kyselyAdapter } from "./kysely.js"
import { prismaAdapter } from "./prisma.js"

export default function adapterFor(pool: pg.Pool): Adapter {
  const kind = process.env.ORM_KIND
  const orm =
    kind === "prisma" ? prismaAdapter(String(pool.options.connectionString)) : kind === "kysely" ? kyselyAdapter(pool) : kind === "drizzle" ? drizzleAdapter(pool) : undefined
  if (orm === undefined) throw new Error(`instance-adapter: ORM_KIND must be prisma, drizzle or kysely, not ${String(kind)}`)
  return orm.adapter
}
