/**
 * Vitest global set-up: one PostgreSQL and one Redis for the whole run. Each test file makes
 * its own database (`createDatabase`) or key prefix, so files never see each other's rows.
 * (The Prisma client is generated before, by the `test` script: scripts/generate-prisma.mjs.)
 */
import type { TestProject } from "vitest/node"
import { startPostgres } from "../../adapter-pg/test/postgres.js"
import { startRedis } from "@portcullis/test-kit/redis"
import { scaled } from "@portcullis/test-time"

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string
    redisUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis({ readyTimeout: scaled(10_000) })])
  project.provide("postgresUrl", postgres.connectionString)
  project.provide("redisUrl", redis.url)
  return async () => {
    await Promise.all([postgres.stop(), redis.stop()])
  }
}
