/**
 * vitest globalSetup: the test app in test/app, built twice with `next build` (as before, and
 * with Cache Components as create-next-app@16 enables them) and each build served by its own
 * `next start` on 127.0.0.1, signed in through one real OpenID Provider (@portcullis/dev-idp).
 * The tests read where everything is with `inject()`.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { appendFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { startDevIdp } from "@portcullis/dev-idp"
import { freePort } from "@portcullis/test-kit/system"
import type { TestProject } from "vitest/node"

const APP_DIR = fileURLToPath(new URL("./app/", import.meta.url))
const NEXT_BIN = fileURLToPath(new URL("../node_modules/next/dist/bin/next", import.meta.url))
export const CLIENT = { id: "nextjs-e2e", secret: "nextjs-e2e-client-secret" }
/** As `openssl rand -base64 32` writes one: under NODE_ENV=production core refuses a weak secret. */
const AUTH_SECRET = "9DWTvGOmMZKPD3rvagiKA7lVd3mmTKXaszQpvAOvxwE="

/** The two builds of the test app: `next.config.mjs` reads `CACHE_COMPONENTS`. */
export const VARIANTS = {
  classic: { env: { CACHE_COMPONENTS: "0" }, distDir: ".next" },
  cacheComponents: { env: { CACHE_COMPONENTS: "1" }, distDir: ".next-cache-components" },
} as const

export type Variant = keyof typeof VARIANTS

/** One served build. */
export interface ServedApp {
  url: string
  /** The build's output folder, absolute. */
  distDir: string
  /** Everything `next start` printed on stdout and stderr during the run. */
  serverLog: string
  buildSeconds: number
}

declare module "vitest" {
  export interface ProvidedContext {
    apps: Record<Variant, ServedApp>
    idpIssuer: string
    /** The apps' AUTH_SECRET: a test seals an older session with it rather than wait for one to age. */
    authSecret: string
  }
}

/** Runs `next <args>` in the app; resolves with the child once `ready` (if given) is printed, or when it exits 0. */
function runNext(args: string[], env: NodeJS.ProcessEnv, log?: { file: string; ready: RegExp }): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEXT_BIN, ...args], { cwd: APP_DIR, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      // The server's log, for the tests to check and a failing test to be read with: it never holds a secret (core redacts).
      if (log !== undefined) appendFileSync(log.file, chunk)
      if (log?.ready.test(output)) resolve(child)
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("error", reject)
    child.once("exit", (code) => {
      if (log === undefined && code === 0) resolve(child)
      else reject(new Error(`next ${args.join(" ")} exited with ${String(code)}:\n${output}`))
    })
  })
}

/**
 * Makes `@portcullis/nextjs` resolve to this package's dist from the app, as an installed package does:
 * a link beside its dependencies (a workspace dependency on itself would be a build cycle).
 */
function linkPackage(): void {
  const link = fileURLToPath(new URL("../node_modules/@portcullis/nextjs", import.meta.url))
  if (existsSync(link)) return
  mkdirSync(dirname(link), { recursive: true })
  symlinkSync("../..", link, "dir")
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  linkPackage()
  const variants = Object.keys(VARIANTS) as Variant[]
  const ports = Object.fromEntries(await Promise.all(variants.map(async (variant) => [variant, await freePort()] as const))) as Record<Variant, number>
  const urls = Object.fromEntries(variants.map((variant) => [variant, `http://127.0.0.1:${String(ports[variant])}`])) as Record<Variant, string>
  const idp = await startDevIdp({
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: variants.flatMap((variant) => [`${urls[variant]}/api/auth/callback/idp`, `${urls[variant]}/api/edge-auth/callback/idp`]) }],
    consent: "auto",
  })
  const base = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" }
  const apps = {} as Record<Variant, ServedApp>
  const servers: ChildProcess[] = []
  try {
    // One build at a time: each already keeps the machine's cores busy.
    for (const variant of variants) {
      const env = { ...base, ...VARIANTS[variant].env }
      const started = performance.now()
      await runNext(["build"], env)
      const buildSeconds = (performance.now() - started) / 1000
      const distDir = join(APP_DIR, VARIANTS[variant].distDir)
      apps[variant] = { url: urls[variant], distDir, serverLog: join(distDir, "server.log"), buildSeconds }
    }
    await Promise.all(
      variants.map(async (variant) => {
        writeFileSync(apps[variant].serverLog, "")
        const server = await runNext(
          ["start", "-p", String(ports[variant]), "-H", "127.0.0.1"],
          // Only what next-auth's docs tell a deployment to set; the provider's options come from AUTH_IDP_*.
          {
            ...base,
            ...VARIANTS[variant].env,
            AUTH_URL: urls[variant],
            AUTH_SECRET,
            AUTH_IDP_ID: CLIENT.id,
            AUTH_IDP_SECRET: CLIENT.secret,
            AUTH_IDP_ISSUER: idp.issuer,
          },
          { file: apps[variant].serverLog, ready: /Ready in/ },
        )
        servers.push(server)
      }),
    )
  } catch (error) {
    for (const server of servers) server.kill("SIGTERM")
    await idp.close()
    throw error
  }
  project.provide("apps", apps)
  project.provide("idpIssuer", idp.issuer)
  project.provide("authSecret", AUTH_SECRET)
  return async () => {
    for (const server of servers) server.kill("SIGTERM")
    await idp.close()
  }
}
