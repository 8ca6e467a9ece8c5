/**
 * vitest globalSetup: the test app in test/app (an app written as @auth/sveltekit's docs show,
 * importing @portcullis/sveltekit), built with `vite build` on @sveltejs/adapter-node and served by
 * `node build` on 127.0.0.1, signed in through one real OpenID Provider (@portcullis/dev-idp).
 * The tests read where everything is with `inject()`.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { startDevIdp } from "@portcullis/dev-idp"
import { installChromium } from "@portcullis/test-kit/chromium"
import { freePort, spawnServer } from "@portcullis/test-kit/system"
import type { TestProject } from "vitest/node"
import { scaled } from "@portcullis/test-time"

const APP_DIR = fileURLToPath(new URL("./app/", import.meta.url))
const VITE_BIN = fileURLToPath(new URL("../node_modules/vite/bin/vite.js", import.meta.url))
export const CLIENT = { id: "sveltekit-e2e", secret: "sveltekit-e2e-client-secret" }

declare module "vitest" {
  export interface ProvidedContext {
    app: string
    idpIssuer: string
    /** Where the app's `sendVerificationRequest` appends each link, one JSON line per email. */
    linkFile: string
    buildSeconds: number
  }
}

/**
 * Makes `@portcullis/sveltekit` resolve to this package from the app, as an installed package does:
 * a link beside its dependencies (a workspace dependency on itself would be a build cycle).
 */
function linkPackage(): void {
  const link = fileURLToPath(new URL("../node_modules/@portcullis/sveltekit", import.meta.url))
  if (existsSync(link)) return
  mkdirSync(dirname(link), { recursive: true })
  symlinkSync("../..", link, "dir")
}

/** `vite build` in the app; rejects with its output when it fails. */
function build(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITE_BIN, "build"], { cwd: APP_DIR, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.once("error", reject)
    child.once("exit", (code) => {
      if (code === 0) resolve()
      else reject(new Error(`vite build exited with ${String(code)}:\n${output}`))
    })
  })
}

async function waitForServer(url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + scaled(20_000)
  while (Date.now() < deadline) {
    try {
      await fetch(url)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  throw new Error(`the app did not start:\n${output()}`)
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  installChromium()
  linkPackage()
  const port = await freePort()
  const app = `http://127.0.0.1:${String(port)}`
  const idp = await startDevIdp({
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${app}/auth/callback/idp`, `${app}/auth/callback/idp-post`] }],
    consent: "auto",
  })
  const scratch = mkdtempSync(join(tmpdir(), "portcullis-sveltekit-"))
  const linkFile = join(scratch, "links.jsonl")
  writeFileSync(linkFile, "")
  let server: ReturnType<typeof spawnServer> | undefined
  try {
    const started = performance.now()
    // svelte.config.js trusts this origin's form posts, as an app using Apple trusts https://appleid.apple.com.
    await build({ ...process.env, NODE_ENV: "production", TRUSTED_IDP_ORIGIN: new URL(idp.issuer).origin })
    const buildSeconds = (performance.now() - started) / 1000
    server = spawnServer(process.execPath, ["build"], {
      cwd: APP_DIR,
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 64 * 1024,
      cleanup: () => {
        rmSync(scratch, { recursive: true, force: true })
      },
      // Only what @auth/sveltekit's docs and adapter-node's tell a deployment to set.
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        ORIGIN: app,
        AUTH_SECRET: "a-sveltekit-end-to-end-secret-of-32-chars",
        AUTH_URL: app,
        AUTH_IDP_ID: CLIENT.id,
        AUTH_IDP_SECRET: CLIENT.secret,
        AUTH_IDP_ISSUER: idp.issuer,
        EMAIL_LINK_FILE: linkFile,
      },
    })
    await waitForServer(app, server.output)
    project.provide("buildSeconds", buildSeconds)
  } catch (error) {
    await server?.stop()
    await idp.close()
    throw error
  }
  project.provide("app", app)
  project.provide("idpIssuer", idp.issuer)
  project.provide("linkFile", linkFile)
  return async () => {
    await server.stop()
    await idp.close()
  }
}
