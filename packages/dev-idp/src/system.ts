/**
 * Debian packages the tests need (Chromium, PostgreSQL, Redis), installed by the tests
 * themselves on a fresh machine, so the README's one test command suffices. Several test runs
 * start at once under turbo: installs take a machine-wide lock, and apt waits for dpkg's.
 *
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process"
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
