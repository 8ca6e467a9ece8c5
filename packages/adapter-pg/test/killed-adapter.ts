/**
 * For the killed-sign-in test: this package's adapter on a pool that kills its own process
 * (SIGKILL, as an out-of-memory kill or a crashed host would) right after a user row is inserted,
 * before anything else is written: between a first sign-in's two writes. Only one process dies per
 * arming: the one that removes `${KILL_DIR}/armed`. While `${KILL_DIR}/plain` exists the adapter
 * has no `createUserWithAccount`, as an adapter that cannot write both at once.
 */
import { existsSync, unlinkSync } from "node:fs"
import { join } from "node:path"
import type { Adapter } from "@portcullis/core/adapters"
import type pg from "pg"
import { PostgresAdapter, type PostgresPool } from "../src/index.js"

const directory = process.env.KILL_DIR ?? ""

/** The statement's text: the adapter passes a query config (`{ text, values, query_timeout }`) or a string. */
function textOf(query: unknown): string | undefined {
  if (typeof query === "string") return query
  const text = typeof query === "object" && query !== null ? (query as { text?: unknown }).text : undefined
  return typeof text === "string" ? text : undefined
}

function dieIfArmed(query: unknown): void {
  if (textOf(query)?.trimStart().startsWith("INSERT INTO users") !== true) return
  try {
    unlinkSync(join(directory, "armed"))
  } catch {
    return
  }
  process.kill(process.pid, "SIGKILL")
}

function watched<T extends Pick<pg.PoolClient, "query">>(db: T): T["query"] {
  return (async (...args: Parameters<pg.Pool["query"]>) => {
    const result: unknown = await (db.query as (...a: unknown[]) => Promise<unknown>).apply(db, args)
    dieIfArmed(args[0])
    return result
  }) as T["query"]
}

export default function KilledAdapter(pool: pg.Pool): Adapter {
  const killing: PostgresPool = {
    query: watched(pool),
    connect: (async () => {
      const client = await pool.connect()
      return {
        query: watched(client),
        release: (error?: Error | boolean) => {
          client.release(error)
        },
      }
    }) as unknown as pg.Pool["connect"],
  }
  const adapter = PostgresAdapter(killing)
  const { createUserWithAccount, ...plain } = adapter
  return new Proxy<Adapter>(plain, {
    get: (target, property, receiver): unknown =>
      property === "createUserWithAccount" ? (existsSync(join(directory, "plain")) ? undefined : createUserWithAccount) : Reflect.get(target, property, receiver),
  })
}
