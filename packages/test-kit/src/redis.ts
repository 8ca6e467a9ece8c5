/**
 * A throw-away Redis for tests: `redis-server` in a temp dir, on 127.0.0.1 and a free port,
 * without persistence, stopped and removed after. Auth.js's unstorage adapter
 * (`packages/authjs-adapters-test`) and `@portcullis/rate-limit-redis` run on it.
 *
 * CI starts on a machine with only Node and npm, as root: when `redis-server` is missing and
 * this process may install packages, it installs Debian's `redis-server` first (as
 * packages/adapter-pg/test/postgres.ts does for PostgreSQL).
 *
 * @module
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { ensureDebianPackages, freePort, spawnServer } from "./system.js"

/** A running server and how to stop it. */
export interface RunningRedis {
  /** `redis://127.0.0.1:<port>`: no password, loopback only. */
  url: string
  /** Stops the server and deletes its directory; safe to call twice. */
  stop(): Promise<void>
}

function findRedisServer(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), "/usr/bin", "/usr/sbin"]
  return dirs.map((dir) => join(dir, "redis-server")).find((path) => existsSync(path))
}

/**
 * Finds `redis-server`, installing Debian's package when it is missing and this process runs as
 * root with apt-get.
 *
 * @throws {Error} when it is missing and cannot be installed, saying what to install.
 */
export function ensureRedisInstalled(): string {
  ensureDebianPackages(["redis-server"], "command -v redis-server")
  const found = findRedisServer()
  if (found === undefined) throw new Error("redis-server is not installed: install it (Debian: apt-get install redis-server) and run the tests again.")
  return found
}

/** Resolves once the server answers PING with PONG. */
async function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    let answer = ""
    const done = (ok: boolean): void => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(500, () => {
      done(false)
    })
    socket.once("error", () => {
      done(false)
    })
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.on("data", (chunk) => {
      answer += chunk.toString()
      if (answer.includes("\r\n")) done(answer.startsWith("+PONG"))
    })
  })
}

/**
 * Starts `redis-server` on 127.0.0.1 and a free port, its working directory a new temp dir,
 * with snapshots and the append-only file off. Takes well under a second once installed.
 *
 * @param options.readyTimeout How long to wait for its first PONG, in ms (default 10 s; pass
 * `scaled(10_000)` from `@portcullis/test-time`).
 * @throws {Error} when Redis is missing and cannot be installed, or does not start.
 *
 * @example
 * ```ts
 * // vitest globalSetup
 * const redis = await startRedis({ readyTimeout: scaled(10_000) })
 * project.provide("redisUrl", redis.url)
 * return () => redis.stop()
 * ```
 */
export async function startRedis(options: { readyTimeout?: number } = {}): Promise<RunningRedis> {
  const binary = ensureRedisInstalled()
  const directory = mkdtempSync(join(tmpdir(), "auth-redis-"))
  const port = await freePort()
  const server = spawnServer(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory, "--protected-mode", "yes"],
    {
      cwd: directory,
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 4_000,
      cleanup: () => {
        rmSync(directory, { recursive: true, force: true })
      },
    },
  )
  const { stop } = server

  const deadline = Date.now() + (options.readyTimeout ?? 10_000)
  while (!(await ping(port))) {
    if (server.exited() || Date.now() > deadline) {
      await stop()
      throw new Error(`redis-server did not answer PING on port ${port}:\n${server.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { url: `redis://127.0.0.1:${port}`, stop }
}
