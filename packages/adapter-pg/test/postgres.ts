/**
 * A throw-away PostgreSQL server for tests: a fresh cluster in a temp dir, listening on
 * 127.0.0.1 only, stopped and removed after. It is not published: other test packages of this
 * repository import it by path (`../../adapter-pg/test/postgres.js`) and start it from their
 * own vitest `globalSetup`, as `test/global-setup.ts` here does.
 *
 * CI starts on a machine with only Node and npm, as root: when the server binaries are missing
 * and this process may install packages, it installs Debian's `postgresql`; PostgreSQL refuses
 * to run as root, so the cluster then runs as an unprivileged user (Debian's `postgres`, or one
 * created for it).
 *
 * @module
 */
import { execFileSync, type ChildProcess } from "node:child_process"
import { ensureDebianPackages, freePort, spawnServer, type SpawnedServer } from "@portcullis/test-kit/system"
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import pg from "pg"
import { scaled } from "@portcullis/test-time"

/** A running server: its superuser's connection string, and how to stop it. */
export interface RunningPostgres {
  /** `postgresql://auth@127.0.0.1:<port>/postgres`: the superuser, no password (trust on loopback). */
  connectionString: string
  /** The temp dir holding the cluster and its unix socket; deleted by `stop()`. */
  directory: string
  /** The server process's id. */
  pid: number
  /** Stops the server and deletes its data directory; safe to call twice. */
  stop(): Promise<void>
  /** Stops the server as an operator's restart does (ending every session) and starts it again on the same data and port. */
  restart(): Promise<void>
  /** Stops the server and its sessions' processes (`SIGSTOP`): connections stay open and nothing answers, as with a hung host. */
  freeze(): void
  /** Lets a frozen server run again (`SIGCONT`). */
  thaw(): void
}

const BINARIES = ["initdb", "postgres"] as const
const SUPERUSER = "auth"
const READY_TIMEOUT = scaled(30_000)

/** The directory holding `initdb` and `postgres`: PATH first, then Debian's versioned folders. */
function findBinDir(): string | undefined {
  const hasAll = (dir: string): boolean => BINARIES.every((name) => existsSync(join(dir, name)))
  const fromPath = (process.env.PATH ?? "").split(delimiter).filter(Boolean)
  const debian = existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql")
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : []
  return [...fromPath, ...debian].find(hasAll)
}

/**
 * Finds the server binaries, installing Debian's `postgresql` when they are missing and this
 * process may (`@portcullis/test-kit/system`).
 *
 * @throws {Error} when they are missing and cannot be installed, saying what to install.
 */
export function ensurePostgresInstalled(): string {
  ensureDebianPackages(["postgresql"], "ls /usr/lib/postgresql/*/bin/initdb || command -v initdb")
  const found = findBinDir()
  if (found === undefined) {
    throw new Error("PostgreSQL's initdb and postgres are not installed: install them (Debian: apt-get install postgresql) and run the tests again.")
  }
  return found
}

interface Identity {
  uid: number
  gid: number
}

/** Who runs the server: this process, unless it is root, then an unprivileged user. */
function serverIdentity(): Identity | undefined {
  if (process.getuid?.() !== 0) return undefined
  const lookup = (name: string): Identity | undefined => {
    try {
      const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, name], { encoding: "utf8", stdio: "pipe" }).trim()))
      return uid === undefined || gid === undefined ? undefined : { uid, gid }
    } catch {
      return undefined
    }
  }
  const existing = lookup("postgres") ?? lookup("authpgtest")
  if (existing !== undefined) return existing
  execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "authpgtest"], { stdio: "pipe" })
  const created = lookup("authpgtest")
  if (created === undefined) throw new Error("startPostgres(): could not create the unprivileged user authpgtest")
  return created
}

/** A command and its arguments, run as `identity` (through setpriv, which execs: the pid is the server's). */
function asUser(identity: Identity | undefined, command: string, args: string[]): [string, string[]] {
  if (identity === undefined) return [command, args]
  return ["setpriv", [`--reuid=${identity.uid}`, `--regid=${identity.gid}`, "--clear-groups", "--", command, ...args]]
}

async function waitUntilReady(connectionString: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`postgres exited (${String(server.exitCode ?? server.signalCode)}) before accepting connections:\n${output()}`)
    }
    const client = new pg.Client({ connectionString })
    try {
      await client.connect()
      await client.end()
      return
    } catch {
      await client.end().catch(() => undefined)
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${READY_TIMEOUT} ms:\n${output()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/**
 * Starts a fresh PostgreSQL cluster in a temp dir, on 127.0.0.1 and a free port (its unix
 * socket in the temp dir), tuned for tests (no fsync). Takes 1 to 3 s.
 *
 * @throws {Error} when PostgreSQL is missing and cannot be installed, or does not start.
 *
 * @example
 * ```ts
 * // vitest globalSetup
 * export default async function setup(project: TestProject) {
 *   const postgres = await startPostgres()
 *   project.provide("postgresUrl", postgres.connectionString)
 *   return () => postgres.stop()
 * }
 * ```
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = ensurePostgresInstalled()
  const identity = serverIdentity()
  const root = mkdtempSync(join(tmpdir(), "auth-pg-"))
  if (identity !== undefined) chownSync(root, identity.uid, identity.gid)
  const data = join(root, "data")
  const removeRoot = (): void => {
    rmSync(root, { recursive: true, force: true })
  }

  try {
    const [initdb, initdbArgs] = asUser(identity, join(bin, "initdb"), [
      "--pgdata", data, "--username", SUPERUSER, "--auth", "trust", "--encoding", "UTF8", "--no-locale", "--no-sync",
    ])
    execFileSync(initdb, initdbArgs, { stdio: "pipe", cwd: root })
  } catch (error) {
    removeRoot()
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? ""
    throw new Error(`initdb failed: ${stderr || String(error)}`, { cause: error })
  }

  const port = await freePort()
  const [command, args] = asUser(identity, join(bin, "postgres"), [
    "-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", root,
    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
  ])
  const connectionString = `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`
  const launch = async (): Promise<SpawnedServer> => {
    // SIGINT is PostgreSQL's fast shutdown: it ends sessions and exits at once.
    const server = spawnServer(command, args, { cwd: root, stopSignal: "SIGINT", killSignal: "SIGQUIT", outputLimit: 8_000, cleanup: () => undefined })
    try {
      await waitUntilReady(connectionString, server.process, server.output)
    } catch (error) {
      await server.stop()
      throw error
    }
    return server
  }
  let server: SpawnedServer
  try {
    server = await launch()
  } catch (error) {
    removeRoot()
    throw error
  }
  /** The server and its children (the sessions' backends and its own workers). */
  const processes = (): number[] => {
    const pid = server.process.pid ?? 0
    const children = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[1] === String(pid)
      } catch {
        return false
      }
    })
    return [pid, ...children.map(Number)]
  }
  return {
    connectionString,
    directory: root,
    get pid() {
      return server.process.pid ?? 0
    },
    stop: async () => {
      await server.stop()
      removeRoot()
    },
    restart: async () => {
      await server.stop()
      server = await launch()
    },
    freeze: () => {
      signal(processes(), "SIGSTOP")
    },
    thaw: () => {
      signal(processes(), "SIGCONT")
    },
  }
}

/** Sends `name` to each of `pids`; one that has exited meanwhile (a backend whose session ended) is skipped. */
function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error
    }
  }
}

/**
 * Creates an empty database on the server and returns its connection string, so each test
 * file (or schema variant) starts from nothing.
 */
export async function createDatabase(connectionString: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`createDatabase(): "${name}" is not a plain lower-case name`)
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await client.query(`CREATE DATABASE ${name}`)
  } finally {
    await client.end()
  }
  const url = new URL(connectionString)
  url.pathname = `/${name}`
  return url.toString()
}
