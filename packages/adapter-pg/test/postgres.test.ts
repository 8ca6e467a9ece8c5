import { existsSync, readFileSync } from "node:fs"
import pg from "pg"
import { expect, it } from "vitest"
import { startPostgres } from "./postgres.js"

it("startPostgres runs a cluster in a temp dir, as a user other than root, and stop() removes it", async () => {
  const postgres = await startPostgres()
  try {
    expect(existsSync(postgres.directory)).toBe(true)
    expect(new URL(postgres.connectionString).hostname).toBe("127.0.0.1")
    const client = new pg.Client({ connectionString: postgres.connectionString })
    await client.connect()
    const { rows } = await client.query<{ one: number }>("SELECT 1 AS one")
    await client.end()
    expect(rows).toEqual([{ one: 1 }])
    // PostgreSQL refuses to run as root: the helper drops to an unprivileged user.
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${postgres.pid}/status`, "utf8"))?.[1]
    expect(uid).toBeDefined()
    expect(uid).not.toBe("0")
  } finally {
    await postgres.stop()
  }
  expect(existsSync(postgres.directory)).toBe(false)
  const late = new pg.Client({ connectionString: postgres.connectionString, connectionTimeoutMillis: 2_000 })
  await expect(late.connect()).rejects.toThrow()
  await postgres.stop()
})
