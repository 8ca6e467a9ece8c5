/**
 * The runtimes of the matrix, each an npm package at a pinned version, installed with npm into a
 * cache folder keyed by package and version on first use (a fresh machine needs only the test
 * command), and how each one starts the app in `app/`, printing `{"port":N}` once it listens.
 *
 * @module
 */
import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises"
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { build } from "esbuild"
import { startAppProcess, type AppProcess } from "@portcullis/test-kit/app-process"
import { scaled } from "@portcullis/test-time"

/** This package's folder: the runtimes resolve `@portcullis/*` from its `node_modules`. */
export const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url))
const app = (file: string): string => join(PACKAGE_DIR, "app", file)

/** An npm package that ships a runtime's binary (through its optional or installed dependencies). */
interface RuntimePackage {
  name: string
  version: string
  /** The binary, under the install's `node_modules/.bin`. */
  bin: string
}

/**
 * Each runtime's package. `node@<major>` installs `node-<os>-<arch>` of the same version (from
 * its preinstall script); `bun`, `deno` and `workerd` take their binary from an optional
 * dependency for the platform (`@oven/bun-linux-x64`, `@deno/linux-x64-glibc`,
 * `@cloudflare/workerd-linux-64`).
 */
export const PACKAGES = {
  "node-20": { name: "node", version: "20.20.2", bin: "node" },
  "node-22": { name: "node", version: "22.23.3", bin: "node" },
  "node-24": { name: "node", version: "24.21.0", bin: "node" },
  "node-26": { name: "node", version: "26.10.0", bin: "node" },
  bun: { name: "bun", version: "1.4.5", bin: "bun" },
  deno: { name: "deno", version: "2.9.6", bin: "deno" },
  workerd: { name: "workerd", version: "1.20261117.1", bin: "workerd" },
  "workerd-nodejs-compat": { name: "workerd", version: "1.20261117.1", bin: "workerd" },
} as const satisfies Record<string, RuntimePackage>

export type RuntimeName = keyof typeof PACKAGES

/** Whether `runtime` is the Node.js running the tests (the supported floor, 20): none to install then. */
export function isThisNode(runtime: RuntimeName): boolean {
  return runtime === `node-${process.versions.node.split(".")[0] ?? ""}` && runtime === "node-20"
}

/** Where installs are kept: `PORTCULLIS_RUNTIMES_DIR`, or the user's cache. */
function cacheDir(): string {
  return process.env.PORTCULLIS_RUNTIMES_DIR ?? join(homedir(), ".cache", "portcullis", "runtimes")
}

/** The environment npm runs in, without what a surrounding `pnpm run` exported for its own client. */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/iu.test(name)))
}

/**
 * The runtime's binary, installed on first use: `npm install <name>@<version>` into a fresh
 * folder renamed into place when done, so a run that dies mid-install or a parallel run never
 * leaves a half install where the next one looks.
 *
 * @throws {Error} when npm fails, with its output.
 */
export async function installRuntime(runtime: RuntimeName): Promise<string> {
  const { name, version, bin } = PACKAGES[runtime]
  const dir = join(cacheDir(), `${name}@${version}`)
  const binary = join(dir, "node_modules", ".bin", bin)
  if (existsSync(binary)) return binary
  const partial = `${dir}.partial-${String(process.pid)}-${randomUUID()}`
  await rm(partial, { recursive: true, force: true })
  await mkdir(partial, { recursive: true })
  // A package.json of its own keeps npm from taking a parent folder for the project.
  await writeFile(join(partial, "package.json"), JSON.stringify({ private: true }))
  try {
    await promisify(execFile)("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", `${name}@${version}`], {
      cwd: partial,
      env: npmEnv(),
      timeout: scaled(180_000),
    })
    await rename(partial, dir)
  } catch (error) {
    if (existsSync(binary)) return binary
    throw new Error(`installing ${name}@${version} for the ${runtime} test failed: ${String(error)}`, { cause: error })
  } finally {
    await rm(partial, { recursive: true, force: true })
  }
  return binary
}

/** The environment the app reads (Node.js, Bun, Deno) or gets as bindings (workerd). */
export type AppEnv = Record<string, string>

/**
 * Starts the app on `runtime` with `env`, and resolves once it listens.
 *
 * @throws {Error} when the runtime cannot be installed, or the app exits or stays silent.
 */
export async function startApp(runtime: RuntimeName, env: AppEnv): Promise<AppProcess> {
  const readyTimeout = scaled(30_000)
  if (isThisNode(runtime)) {
    // The suite's own Node.js is the supported floor: no second copy of it to install.
    return startAppProcess(app("node.mjs"), { cwd: PACKAGE_DIR, env, command: [process.execPath], readyTimeout })
  }
  const binary = await installRuntime(runtime)
  // A registry that refuses every connection: a package fetched at run time fails the test
  // instead of passing unnoticed.
  const offline = { ...env, NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/" }
  switch (runtime) {
    case "bun":
      // --no-install: every import resolves from node_modules, never fetched at run time.
      return startAppProcess(app("bun.mjs"), { cwd: PACKAGE_DIR, env: offline, command: [binary, "run", "--no-install"], readyTimeout })
    case "deno":
      return startAppProcess(app("deno.mjs"), {
        cwd: PACKAGE_DIR,
        env: { ...offline, DENO_NO_UPDATE_CHECK: "1" },
        // --node-modules-dir=manual and --cached-only: npm packages come from the installed
        // node_modules, and nothing is fetched from a registry. The least permissions an app is
        // advised to run with: the network of its own address (the dev IdP is there too), and
        // env access to the app's variables only: reading any other throws (NotCapable), which
        // core must take for "unset". No file system or system access.
        command: [binary, "run", "--node-modules-dir=manual", "--cached-only", "--no-lock", `--allow-env=${Object.keys(env).join(",")}`, "--allow-net=127.0.0.1"],
        readyTimeout,
      })
    case "workerd":
      return startWorkerd(binary, env, { nodejsCompat: false, readyTimeout })
    case "workerd-nodejs-compat":
      return startWorkerd(binary, env, { nodejsCompat: true, readyTimeout })
    default:
      return startAppProcess(app("node.mjs"), { cwd: PACKAGE_DIR, env, command: [binary], readyTimeout })
  }
}

/** A string as a Cap'n Proto text literal. */
function capnpString(value: string): string {
  return JSON.stringify(value)
}

/**
 * The worker bundled with esbuild (as a deploy would) and served by `workerd` with a config of
 * its own: one worker, its bindings as text, outbound requests allowed to loopback (where the
 * OpenID Provider is), a socket on a free port announced on stdout through `--control-fd`.
 * Without `nodejsCompat` the worker has the web platform only (core seals with WebCrypto, the
 * config names the secret); with it, `node:crypto` and a `process.env` filled from the bindings,
 * which core reads as on Node.js.
 */
async function startWorkerd(binary: string, env: AppEnv, { nodejsCompat, readyTimeout }: { nodejsCompat: boolean; readyTimeout: number }): Promise<AppProcess> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-workerd-"))
  await build({
    entryPoints: [app("workerd.mjs")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    // The Email provider imports nodemailer only for SMTP (`server`), which a worker cannot open;
    // an app that sends its links itself leaves it out of the bundle.
    external: ["nodemailer"],
    outfile: join(dir, "worker.js"),
    logLevel: "error",
  })
  const bindings = Object.entries({ ...env, CORE_READS_ENV: String(nodejsCompat) }).map(([name, value]) => `(name = ${capnpString(name)}, text = ${capnpString(value)})`)
  await writeFile(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "app", worker = .app),
    (name = "loopback", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "app")],
);
const app :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = [${nodejsCompat ? '"nodejs_compat"' : ""}],
  bindings = [${bindings.join(", ")}],
  globalOutbound = "loopback",
);
`,
  )
  // --control-fd=1 prints {"event":"listen","socket":"http","port":N} on stdout once it listens.
  const served = await startAppProcess(join(dir, "config.capnp"), { cwd: dir, env: {}, command: [binary, "serve", "--control-fd=1", "--verbose"], readyTimeout })
  return {
    ...served,
    stop: async () => {
      await served.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
