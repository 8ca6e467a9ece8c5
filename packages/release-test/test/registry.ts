/**
 * A real npm registry on loopback: Verdaccio, run in a child process with its configuration
 * and storage in a temporary directory. It holds only what the rehearsal publishes (`@portcullis/*`)
 * and proxies nothing: apps point their `@portcullis` scope at it, as they would at a private registry,
 * and take everything else from their usual registry.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { once } from "node:events"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { scaled } from "@portcullis/test-time"

/** A running registry and what a client needs to publish to it. */
export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  url: string
  /** An `.npmrc` that points npm and pnpm at it, with a publish token. */
  npmrc: string
  close(): Promise<void>
}

const SERVER = join(import.meta.dirname, "fixtures", "verdaccio-server.mjs")

/**
 * Starts Verdaccio in `dir` (config, storage, htpasswd) and signs up a publisher.
 *
 * @throws Error when Verdaccio does not start within 30 s or refuses the publisher.
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const config = {
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 10 } },
    // No uplink: the public registry's @portcullis/* (earlier releases) must never leak in.
    uplinks: {},
    packages: {
      "@portcullis/*": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" },
    },
    server: { keepAliveTimeout: 60 },
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "error" },
    max_body_size: "100mb",
  }
  await mkdir(dir, { recursive: true })
  const configPath = join(dir, "config.yaml")
  // JSON is YAML: no YAML writer needed.
  await writeFile(configPath, JSON.stringify(config, null, 2))

  const child = spawn(process.execPath, [SERVER, configPath], { stdio: ["ignore", "pipe", "inherit"] })
  const port = await readPort(child)
  const url = `http://127.0.0.1:${port}/`
  const token = await signUp(url)
  const npmrc = join(dir, ".npmrc")
  await writeFile(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`)
  return {
    url,
    npmrc,
    async close() {
      if (child.exitCode !== null) return
      child.kill()
      await once(child, "exit")
    },
  }
}

async function readPort(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  const timer = setTimeout(() => child.kill(), scaled(30_000))
  try {
    for await (const line of lines) {
      const match = /^listening on (\d+)$/.exec(line)
      if (match?.[1] !== undefined) return Number(match[1])
    }
  } finally {
    clearTimeout(timer)
    // Leaving the loop closes the line reader: keep draining Verdaccio's own log lines so it
    // never blocks on a full pipe.
    child.stdout?.resume()
  }
  throw new Error(`Verdaccio exited (${String(child.exitCode)}) before listening`)
}

/** Creates a user the way `npm adduser` does and returns its token. */
async function signUp(url: string): Promise<string> {
  const name = "rehearsal"
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: "rehearsal-password", type: "user", roles: [], date: new Date().toISOString() }),
  })
  const body = (await response.json()) as { token?: string }
  if (!response.ok || body.token === undefined) throw new Error(`Verdaccio refused the publisher: ${response.status} ${JSON.stringify(body)}`)
  return body.token
}
