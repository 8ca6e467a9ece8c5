/**
 * vitest globalSetup: the test app in test/app, built once with `next build` and served with
 * `next start` on 127.0.0.1, signed in through a real OpenID Provider (@portcullis/dev-idp). The
 * tests read where everything is with `inject()`.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { appendFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { startDevIdp } from "@portcullis/dev-idp"
import { freePort } from "@portcullis/test-kit/system"
import type { TestProject } from "vitest/node"

const APP_DIR = fileURLToPath(new URL("./app/", import.meta.url))
const NEXT_BIN = fileURLToPath(new URL("../node_modules/next/dist/bin/next", import.meta.url))
/** Where `next start` writes its output during the run. */
const SERVER_LOG = fileURLToPath(new URL("./app/.next/server.log", import.meta.url))
export const CLIENT = { id: "nextjs-e2e", secret: "nextjs-e2e-client-secret" }

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string
    idpIssuer: string
    buildSeconds: number
    serverLog: string
  }
}

/** Runs `next <args>` in the app; resolves with the child once `ready` (if given) is printed, or when it exits 0. */
function runNext(args: string[], env: NodeJS.ProcessEnv, ready?: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEXT_BIN, ...args], { cwd: APP_DIR, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      // The server's log, for a failing test to be read with: it never holds a secret (core redacts).
      if (ready !== undefined) appendFileSync(SERVER_LOG, chunk)
      if (ready?.test(output)) resolve(child)
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("error", reject)
    child.once("exit", (code) => {
      if (ready === undefined && code === 0) resolve(child)
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
  const port = await freePort()
  const appUrl = `http://127.0.0.1:${port}`
  const idp = await startDevIdp({
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${appUrl}/api/auth/callback/idp`, `${appUrl}/api/edge-auth/callback/idp`] }],
    consent: "auto",
  })
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" }
  const started = performance.now()
  await runNext(["build"], env)
  const buildSeconds = (performance.now() - started) / 1000
  writeFileSync(SERVER_LOG, "")
  const server = await runNext(
    ["start", "-p", String(port), "-H", "127.0.0.1"],
    // Only what next-auth's docs tell a deployment to set; the provider's options come from AUTH_IDP_*.
    { ...env, AUTH_URL: appUrl, AUTH_SECRET: "a-next-js-end-to-end-secret-of-32-chars", AUTH_IDP_ID: CLIENT.id, AUTH_IDP_SECRET: CLIENT.secret, AUTH_IDP_ISSUER: idp.issuer },
    /Ready in/,
  )
  project.provide("appUrl", appUrl)
  project.provide("idpIssuer", idp.issuer)
  project.provide("buildSeconds", buildSeconds)
  project.provide("serverLog", SERVER_LOG)
  return async () => {
    server.kill("SIGTERM")
    await idp.close()
  }
}
