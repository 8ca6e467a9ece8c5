/**
 * `@portcullis/rate-limit-redis`: core's abuse limits (`rateLimit.store`) counted in Redis, so
 * every instance of an app shares them. Takes a node-redis client, an ioredis client, or a
 * function that sends one command; depends on neither client.
 *
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { redisRateLimitStore } from "@portcullis/rate-limit-redis"
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * Auth(request, { ...config, rateLimit: { store: redisRateLimitStore(redis) } })
 * ```
 *
 * @module
 */
import type { RateLimitCount, RateLimitStore } from "@portcullis/core"
import { AdapterError } from "@portcullis/core/errors"

/** Sends one Redis command (`["EVAL", script, "1", key, ...]`) and answers its reply. */
export type RedisSend = (command: string[]) => Promise<unknown>

/** What the store uses of a node-redis client (v4 and later): `sendCommand(["GET", "key"])`. */
export interface NodeRedisClientLike {
  sendCommand(command: string[]): Promise<unknown>
}

/** What the store uses of an ioredis client (v5 and later): `call("GET", "key")`. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>
}

/** A client the store can send commands through. */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike | RedisSend

/** Options of {@link redisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** Put before every key, so the counters keep to themselves in a shared database. Default `"portcullis:rate-limit:"`. */
  prefix?: string
}

/** A command to Redis failed, or answered something that is not a count: the client's error is the `cause`. */
export class RedisRateLimitStoreError extends AdapterError {}

/** Keys longer than this (in characters) are stored as their hash, so a key's size is bounded. */
export const MAX_STORED_KEY_LENGTH = 200
/** How stored hashes of long keys begin; a key that itself begins so is hashed too, so none is mistaken for another. */
const HASHED = "#sha256:"

// One script, so a hit is atomic: the first hit of a window (or of a key somehow left without an
// expiry) sets the window; every hit answers the count and when the window ends, on Redis's own
// clock, so concurrent hits answer the same end however long each reply took to arrive. TIME
// comes after the writes, which Redis before 5 requires of a script.
const HIT = `local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if count == 1 or left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
local now = redis.call('TIME')
return {count, tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + left}`

const PEEK = `local count = redis.call('GET', KEYS[1])
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if not count then return {0, ms} end
return {tonumber(count), ms + math.max(0, redis.call('PTTL', KEYS[1]))}`

/** The one way to send a command through whichever client was given. */
function senderOf(client: RedisClientLike): RedisSend {
  if (typeof client === "function") return client
  // ioredis clients also have a sendCommand, which takes a Command object: look for call first.
  if ("call" in client && typeof client.call === "function") return (command) => client.call(...(command as [string, ...string[]]))
  if ("sendCommand" in client && typeof client.sendCommand === "function") return (command) => client.sendCommand(command)
  throw new TypeError("redisRateLimitStore(): pass a node-redis client, an ioredis client, or a function that sends a command such as [\"GET\", \"key\"].")
}

function base64url(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** The key as stored: itself, or, when it is longer than {@link MAX_STORED_KEY_LENGTH} or looks like a hash, `#sha256:` and its SHA-256. */
async function storedKey(key: string): Promise<string> {
  if (key.length <= MAX_STORED_KEY_LENGTH && !key.startsWith(HASHED)) return key
  return HASHED + base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))))
}

/** A script's reply `[count, window end in ms since the epoch]` as a count; anything else is an error. */
function toCount(reply: unknown, method: string): RateLimitCount {
  const [count, end] = Array.isArray(reply) ? reply.map(Number) : []
  if (count === undefined || end === undefined || !Number.isSafeInteger(count) || !Number.isSafeInteger(end)) {
    const shown = (Array.isArray(reply) ? `[${reply.map(String).join(", ")}]` : String(reply)).slice(0, 100)
    throw new RedisRateLimitStoreError(`redisRateLimitStore.${method}(): Redis answered ${shown}, not [count, window end]; does the client send commands as they are?`)
  }
  return { count, resetAt: new Date(end) }
}

/**
 * A {@link RateLimitStore} in Redis, for `rateLimit.store`: instances sharing the Redis share the
 * limits. A hit is one Lua script (`INCR`, then `PEXPIRE` when the window is new, answering the
 * count and `PTTL`), so of any number of concurrent hits on one key, across instances, each gets
 * a count of its own, and Redis deletes a counter when its window ends. Keys are put after
 * `prefix`; keys longer than 200 characters are stored as their SHA-256.
 *
 * The client is a node-redis client (`createClient()` from `redis` or `@redis/client`, v4 or
 * later: its `sendCommand`), an ioredis client (`new Redis()`: its `call`), or a function that
 * sends one command as an array of strings and answers the reply (a cluster client, a proxy, a
 * REST client). It must be connected; the store neither connects nor quits it.
 *
 * @param client The connected client, or a function sending one command.
 * @throws {TypeError} when `client` is none of those.
 * @throws {RangeError} from `hit` when `windowSeconds` is not a positive number.
 * @throws {RedisRateLimitStoreError} from the methods when a command fails (the client's error is
 * the `cause`) or its reply is not a count.
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis"
 *
 * const store = redisRateLimitStore(new Redis(process.env.REDIS_URL ?? "redis://localhost:6379"), { prefix: "myapp:limits:" })
 * Auth(request, { ...config, rateLimit: { store } })
 * ```
 */
export function redisRateLimitStore(client: RedisClientLike, options: RedisRateLimitStoreOptions = {}): RateLimitStore {
  const send = senderOf(client)
  const prefix = options.prefix ?? "portcullis:rate-limit:"

  async function command(method: string, args: string[]): Promise<unknown> {
    try {
      return await send(args)
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error)
      throw new RedisRateLimitStoreError(`redisRateLimitStore.${method}(): Redis refused or could not be reached (${detail}).`, { cause: error })
    }
  }

  return {
    async hit(key, windowSeconds) {
      if (!(windowSeconds > 0) || !Number.isFinite(windowSeconds)) {
        throw new RangeError(`redisRateLimitStore.hit(): the window must be a positive number of seconds, not ${String(windowSeconds)}.`)
      }
      const window = String(Math.max(1, Math.ceil(windowSeconds * 1000)))
      return toCount(await command("hit", ["EVAL", HIT, "1", prefix + (await storedKey(key)), window]), "hit")
    },
    async peek(key) {
      return toCount(await command("peek", ["EVAL", PEEK, "1", prefix + (await storedKey(key))]), "peek")
    },
    async reset(key) {
      await command("reset", ["DEL", prefix + (await storedKey(key))])
    },
  }
}
