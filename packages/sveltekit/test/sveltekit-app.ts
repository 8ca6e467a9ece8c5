/**
 * vitest globalSetup: the test app in test/app (an app written as @auth/sveltekit's docs show,
 * importing @portcullis/sveltekit), copied out of the workspace and installed as a user installs
 * it: @portcullis/* from the tarballs `pnpm pack` makes of the built packages, SvelteKit, Svelte,
 * Vite and the rest at the versions this package is tested with. Then built with `vite build` on
 * @sveltejs/adapter-node and served by `node build` on 127.0.0.1, signed in through one real
 * OpenID Provider (@portcullis/dev-idp). The tests read where everything is with `inject()`.
 */
import { spawn } from "node:child_process"
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { startDevIdp } from "@portcullis/dev-idp"
import { installChromium } from "@portcullis/test-kit/chromium"
import { freePort, spawnServer } from "@portcullis/test-kit/system"
import { installPackedWorkspacePackages } from "@portcullis/test-kit/workspace"
import type { TestProject } from "vitest/node"
import { scaled } from "@portcullis/test-time"

const APP_SOURCE = fileURLToPath(new URL("./app/", import.meta.url))
const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url))
/** What installing or building test/app in place (by hand) leaves there: not the app's source. */
const NOT_SOURCE = new Set(["node_modules", ".svelte-kit", "build"])
export const CLIENT = { id: "sveltekit-e2e", secret: "sveltekit-e2e-client-secret" }

declare module "vitest" {
  export interface ProvidedContext {
    app: string
    /** The installed copy of test/app, with its node_modules and SvelteKit's generated tsconfig. */
    appDir: string
    idpIssuer: string
    /** Where the app's `sendVerificationRequest` appends each link, one JSON line per email. */
    linkFile: string
    installSeconds: number
    buildSeconds: number
  }
}

/** `vite build` in the app, with the app's own Vite; rejects with its output when it fails. */
function build(appDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const vite = join(appDir, "node_modules", "vite", "bin", "vite.js")
    const child = spawn(process.execPath, [vite, "build"], { cwd: appDir, env, stdio: ["ignore", "pipe", "pipe"] })
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
  const port = await freePort()
  const app = `http://127.0.0.1:${String(port)}`
  const idp = await startDevIdp({
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${app}/auth/callback/idp`, `${app}/auth/callback/idp-post`] }],
    consent: "auto",
  })
  const scratch = mkdtempSync(join(tmpdir(), "portcullis-sveltekit-"))
  const linkFile = join(scratch, "links.jsonl")
  writeFileSync(linkFile, "")
  // Outside the workspace, so that nothing resolves from its node_modules.
  const appDir = join(scratch, "app")
  let server: ReturnType<typeof spawnServer> | undefined
  try {
    cpSync(APP_SOURCE, appDir, { recursive: true, filter: (source) => !NOT_SOURCE.has(basename(source)) })
    let started = performance.now()
    await installPackedWorkspacePackages(appDir, { tarballs: join(scratch, "tarballs"), versionsFrom: PACKAGE_DIR })
    const installSeconds = (performance.now() - started) / 1000
    started = performance.now()
    // svelte.config.js trusts this origin's form posts, as an app using Apple trusts https://appleid.apple.com.
    await build(appDir, { ...process.env, NODE_ENV: "production", TRUSTED_IDP_ORIGIN: new URL(idp.issuer).origin })
    const buildSeconds = (performance.now() - started) / 1000
    server = spawnServer(process.execPath, ["build"], {
      cwd: appDir,
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
    project.provide("installSeconds", installSeconds)
    project.provide("buildSeconds", buildSeconds)
  } catch (error) {
    if (server === undefined) rmSync(scratch, { recursive: true, force: true })
    else await server.stop()
    await idp.close()
    throw error
  }
  project.provide("app", app)
  project.provide("appDir", appDir)
  project.provide("idpIssuer", idp.issuer)
  project.provide("linkFile", linkFile)
  return async () => {
    await server.stop()
    await idp.close()
  }
}
