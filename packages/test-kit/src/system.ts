/**
 * Debian packages the tests need (Chromium, PostgreSQL, Redis), installed by the tests
 * themselves on a fresh machine, so the README's one test command suffices. Several test runs
 * start at once under turbo: installs take a machine-wide lock, and apt waits for dpkg's.
 *
 * @module
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { createServer } from "node:net"

/** Serialises the installs of concurrent test processes on one machine. */
const LOCK = "/tmp/auth-test-apt.lock"

/** Whether this process may install Debian packages: root, on a machine with apt-get. */
export function canInstallPackages(): boolean {
  return process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")
}

function holds(check: string): boolean {
  return spawnSync("sh", ["-c", check], { stdio: "ignore" }).status === 0
}

/**
 * Installs Debian `packages` unless the shell test `installed` already succeeds, when this
 * process may (see {@link canInstallPackages}); otherwise leaves it to the caller to fail with
 * instructions. The test is run again once the lock is held: a concurrent test run may have
 * installed them meanwhile.
 *
 * @example
 * ```ts
 * ensureDebianPackages(["redis-server"], "command -v redis-server")
 * ```
 */
export function ensureDebianPackages(packages: readonly string[], installed: string): void {
  if (holds(installed) || !canInstallPackages()) return
  console.log(`Installing Debian's ${packages.join(", ")} with apt-get (about 30 s), for the tests...`)
  const script = [
    `(${installed}) >/dev/null 2>&1 && exit 0`,
    "apt-get -o DPkg::Lock::Timeout=600 update -qq",
    `apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends ${packages.join(" ")}`,
  ].join("\n")
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  // flock(1) holds the lock across both apt-get calls; a run that waited finds the packages there.
  execFileSync("flock", ["--wait", "900", LOCK, "sh", "-ec", script], { stdio: "inherit", env })
}

/** A TCP port on 127.0.0.1 that nothing listens on right now, for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => {
        if (typeof address === "object" && address !== null) resolve(address.port)
        else reject(new Error("no port"))
      })
    })
  })
}

/** A server process a test started, and how to end it. */
export interface SpawnedServer {
  process: ChildProcess
  /** The last of what it printed (stdout and stderr), for an error message. */
  output: () => string
  /** Whether it has exited. */
  exited: () => boolean
  /** Sends `stopSignal`, waits for the exit, then runs `cleanup`; once, however often it is called. */
  stop: () => Promise<void>
}

/**
 * Starts a test's server process (PostgreSQL, Redis, an app), keeping the end of its output, and kills
 * it with `killSignal` should the test process exit without stopping it.
 */
export function spawnServer(
  command: string,
  args: readonly string[],
  options: {
    cwd: string
    stopSignal: NodeJS.Signals
    killSignal: NodeJS.Signals
    outputLimit: number
    cleanup: () => void
    /** The process's environment; this process's by default. */
    env?: NodeJS.ProcessEnv
  },
): SpawnedServer {
  const server = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-options.outputLimit)
  }
  server.stdout.on("data", collect)
  server.stderr.on("data", collect)
  const exited = new Promise<void>((resolve) => server.once("exit", () => {
    resolve()
  }))
  // A test process that dies without teardown must not leave a server behind.
  const killOnExit = (): void => {
    server.kill(options.killSignal)
  }
  process.once("exit", killOnExit)
  const running = (): boolean => server.exitCode === null && server.signalCode === null
  let stopped = false
  return {
    process: server,
    output: () => output,
    exited: () => !running(),
    stop: async () => {
      if (stopped) return
      stopped = true
      process.off("exit", killOnExit)
      if (running()) server.kill(options.stopSignal)
      await exited
      options.cleanup()
    },
  }
}
