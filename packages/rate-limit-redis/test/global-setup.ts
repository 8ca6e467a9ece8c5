/**
 * Vitest global set-up: one throw-away Redis for the whole run (`@portcullis/test-kit/redis`).
 * Each test file keeps to a key prefix of its own.
 */
import { startRedis } from "@portcullis/test-kit/redis"
import { scaled } from "@portcullis/test-time"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedis({ readyTimeout: scaled(10_000) })
  project.provide("redisUrl", redis.url)
  return () => redis.stop()
}
