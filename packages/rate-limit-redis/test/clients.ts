/**
 * The two common Redis clients, connected to the run's Redis before the calling block's tests
 * and closed after: node-redis (`@redis/client`, the client of the `redis` package) and ioredis.
 */
import { createClient } from "@redis/client"
import { Redis } from "ioredis"
import { afterAll, beforeAll, inject } from "vitest"

export type NodeRedis = ReturnType<typeof createClient>

/** A connected node-redis client for the calling block; an accessor, valid inside tests. */
export function useNodeRedis(): () => NodeRedis {
  let client: NodeRedis | undefined
  beforeAll(async () => {
    client = createClient({ url: inject("redisUrl") })
    await client.connect()
  })
  afterAll(async () => {
    await client?.close()
  })
  return () => {
    if (client === undefined) throw new Error("useNodeRedis(): the client is only there inside tests")
    return client
  }
}

/** A connected ioredis client for the calling block; an accessor, valid inside tests. */
export function useIoRedis(): () => Redis {
  let client: Redis | undefined
  beforeAll(async () => {
    client = new Redis(inject("redisUrl"), { lazyConnect: true })
    await client.connect()
  })
  afterAll(async () => {
    await client?.quit()
  })
  return () => {
    if (client === undefined) throw new Error("useIoRedis(): the client is only there inside tests")
    return client
  }
}
