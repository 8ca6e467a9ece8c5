/**
 * vitest globalSetup: the test app in test/app (an app written as @auth/sveltekit's docs show,
 * importing @portcullis/sveltekit), copied out of the workspace and installed as a user installs
 * it: @portcullis/* from the tarballs `pnpm pack` makes of the built packages, SvelteKit, Svelte,
 * Vite and the rest at the versions this package is tested with. Then built with `vite build` on
 * @sveltejs/adapter-node and served by `node build` on 127.0.0.1, signed in through one real
 * OpenID Provider (@portcullis/dev-idp). The tests read where everything is with `inject()`.
 *
 * The same app is built a second time with SvelteKit's own CSRF check on (`SVELTEKIT_CSRF=default`)
 * and served as `defaultCsrfApp`, a client of the IdP of its own, to show that the IdP's back-channel
 * logout POSTs (no Origin header) are refused there. The IdP runs here, not in the test workers: a
 * small HTTP endpoint (`idpControl`) lets the tests call its `endSessions(sub)`.
 */
import { spawn } from "node:child_process"
import { createServer, type Server } from "node:http"
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { installChromium } from "@portcullis/test-kit/chromium"
import { freePort, spawnServer } from "@portcullis/test-kit/system"
import { installPackedWorkspacePackages } from "@portcullis/test-kit/workspace"
import type { TestProject } from "vitest/node"
import { scaled } from "@portcullis/test-time"

const APP_SOURCE = fileURLToPath(new URL("./app/", import.meta.url))
const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url))
/** What installing or building test/app in place (by hand) leaves there: not the app's source. */
const NOT_SOURCE = new Set(["node_modules", ".svelte-kit", "build", "build-default-csrf"])
export const CLIENT = { id: "sveltekit-e2e", secret: "sveltekit-e2e-client-secret" }
/** The client that the build with SvelteKit's CSRF check on signs in as. */
/** As `openssl rand -base64 32` writes one: under NODE_ENV=production core refuses a weak secret. */
export const AUTH_SECRET = "mWkXvVnu9wU05nq3nL/wWQzzRb2ItU31SqZ02onfSLs="
export const DEFAULT_CSRF_CLIENT = { id: "sveltekit-e2e-default-csrf", secret: "sveltekit-e2e-default-csrf-secret" }

declare module "vitest" {
  export interface ProvidedContext {
    app: string
    /** The same app built with SvelteKit's CSRF check on (trusting the IdP's origin only). */
    defaultCsrfApp: string
    /** `POST {idpControl}/end-sessions/{sub}` runs the IdP's `endSessions(sub)`, answering its records as JSON. */
    idpControl: string
    /** The installed copy of test/app, with its node_modules and SvelteKit's generated tsconfig. */
    appDir: string
    idpIssuer: string
    /** Where the app's `sendVerificationRequest` appends each link, one JSON line per email. */
    linkFile: string
    installSeconds: number
    buildSeconds: number
    defaultCsrfBuildSeconds: number
  }
}

/** `vite build` in the app, with the app's own Vite; rejects with its output when it fails. */
function build(appDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  // Into env.BUILD_OUT (svelte.config.js hands it to adapter-node); each output runs on its own.
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

/** Answers `POST /end-sessions/{sub}` with the records of `idp.endSessions(sub)`. */
async function startIdpControl(idp: DevIdp): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const sub = /^\/end-sessions\/([^/]+)$/.exec(request.url ?? "")?.[1]
    if (request.method !== "POST" || sub === undefined) {
      response.writeHead(404).end()
      return
    }
    idp.endSessions(decodeURIComponent(sub)).then(
      (records) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(records)),
      (error: unknown) => response.writeHead(500).end(String(error)),
    )
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${String(port)}`, server }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  installChromium()
  const port = await freePort()
  const app = `http://127.0.0.1:${String(port)}`
  const defaultCsrfPort = await freePort()
  const defaultCsrfApp = `http://127.0.0.1:${String(defaultCsrfPort)}`
  const idp = await startDevIdp({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${app}/auth/callback/idp`, `${app}/auth/callback/idp-post`],
        backchannel_logout_uri: `${app}/auth/backchannel-logout/idp`,
      },
      {
        client_id: DEFAULT_CSRF_CLIENT.id,
        client_secret: DEFAULT_CSRF_CLIENT.secret,
        redirect_uris: [`${defaultCsrfApp}/auth/callback/idp`],
        backchannel_logout_uri: `${defaultCsrfApp}/auth/backchannel-logout/idp`,
      },
    ],
    consent: "auto",
  })
  const control = await startIdpControl(idp)
  const scratch = mkdtempSync(join(tmpdir(), "portcullis-sveltekit-"))
  const linkFile = join(scratch, "links.jsonl")
  writeFileSync(linkFile, "")
  // Outside the workspace, so that nothing resolves from its node_modules.
  const appDir = join(scratch, "app")
  let server: ReturnType<typeof spawnServer> | undefined
  let defaultCsrfServer: ReturnType<typeof spawnServer> | undefined
  try {
    cpSync(APP_SOURCE, appDir, { recursive: true, filter: (source) => !NOT_SOURCE.has(basename(source)) })
    let started = performance.now()
    await installPackedWorkspacePackages(appDir, { tarballs: join(scratch, "tarballs"), versionsFrom: PACKAGE_DIR })
    const installSeconds = (performance.now() - started) / 1000
    started = performance.now()
    // First the build with SvelteKit's check on, which trusts the IdP's origin (as an app using
    // Apple trusts https://appleid.apple.com); then the app as the README shows it, into build/.
    await build(appDir, {
      ...process.env,
      NODE_ENV: "production",
      SVELTEKIT_CSRF: "default",
      BUILD_OUT: "build-default-csrf",
      TRUSTED_IDP_ORIGIN: new URL(idp.issuer).origin,
    })
    const defaultCsrfBuildSeconds = (performance.now() - started) / 1000
    started = performance.now()
    await build(appDir, { ...process.env, NODE_ENV: "production" })
    const buildSeconds = (performance.now() - started) / 1000
    const serverEnv = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      AUTH_SECRET,
      AUTH_IDP_ISSUER: idp.issuer,
      EMAIL_LINK_FILE: linkFile,
    }
    server = spawnServer(process.execPath, ["build"], {
      cwd: appDir,
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 64 * 1024,
      cleanup: () => {
        rmSync(scratch, { recursive: true, force: true })
      },
      // Only what @auth/sveltekit's docs and adapter-node's tell a deployment to set.
      // Only what @auth/sveltekit's docs and adapter-node's tell a deployment to set, and the
      // origins src/hooks.server.ts trusts (the README's back-channel logout section).
      env: {
        ...serverEnv,
        PORT: String(port),
        ORIGIN: app,
        AUTH_URL: app,
        AUTH_IDP_ID: CLIENT.id,
        AUTH_IDP_SECRET: CLIENT.secret,
        CSRF_TRUSTED_ORIGINS: new URL(idp.issuer).origin,
      },
    })
    defaultCsrfServer = spawnServer(process.execPath, ["build-default-csrf"], {
      cwd: appDir,
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 64 * 1024,
      cleanup: () => undefined,
      env: {
        ...serverEnv,
        PORT: String(defaultCsrfPort),
        ORIGIN: defaultCsrfApp,
        AUTH_URL: defaultCsrfApp,
        AUTH_IDP_ID: DEFAULT_CSRF_CLIENT.id,
        AUTH_IDP_SECRET: DEFAULT_CSRF_CLIENT.secret,
      },
    })
    await waitForServer(app, server.output)
    await waitForServer(defaultCsrfApp, defaultCsrfServer.output)
    project.provide("installSeconds", installSeconds)
    project.provide("buildSeconds", buildSeconds)
    project.provide("defaultCsrfBuildSeconds", defaultCsrfBuildSeconds)
  } catch (error) {
    await defaultCsrfServer?.stop()
    if (server === undefined) rmSync(scratch, { recursive: true, force: true })
    else await server.stop()
    control.server.close()
    await idp.close()
    throw error
  }
  project.provide("app", app)
  project.provide("defaultCsrfApp", defaultCsrfApp)
  project.provide("idpControl", control.url)
  project.provide("appDir", appDir)
  project.provide("idpIssuer", idp.issuer)
  project.provide("linkFile", linkFile)
  return async () => {
    await defaultCsrfServer.stop()
    await server.stop()
    control.server.close()
    await idp.close()
  }
}
