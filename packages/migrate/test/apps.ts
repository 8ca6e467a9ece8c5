/**
 * The end-to-end tests' plumbing: copy a fixture app out of the workspace, run the built
 * `portcullis-migrate` on it, install it with npm and our packed packages, start it, and stop it.
 */
import { execFile } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { spawnServer, type SpawnedServer } from "@portcullis/test-kit/system"
import { installPackedWithNpm } from "@portcullis/test-kit/workspace"

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url))
/** The codemod as `npx @portcullis/migrate` runs it: the built bin. */
export const BIN = join(PACKAGE_DIR, "dist", "cli.js")

export const runFile = promisify(execFile)

/** What a run of the bin printed, and its exit code. */
export interface BinRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs the built bin with `args`; never throws for a non-zero exit. */
export async function runBin(args: readonly string[]): Promise<BinRun> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build @portcullis/migrate first (pnpm --filter @portcullis/migrate build)`)
  try {
    const { stdout, stderr } = await runFile(process.execPath, [BIN, ...args], { encoding: "utf8" })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" }
  }
}

/**
 * Copies `test/fixtures/<fixture>` to `<scratch>/app`, in a fresh folder outside this workspace so
 * that nothing resolves from the workspace's node_modules: the app gets only what its own install
 * brings. Returns the scratch folder (remove it when done) and the app's folder.
 */
export function copyFixtureOutside(fixture: string): { scratch: string; dir: string } {
  const scratch = mkdtempSync(join(tmpdir(), `portcullis-migrate-${fixture}-`))
  const dir = join(scratch, "app")
  cpSync(join(PACKAGE_DIR, "test", "fixtures", fixture), dir, { recursive: true })
  return { scratch, dir }
}

/**
 * `test/fixtures/<fixture>` copied outside the workspace ({@link copyFixtureOutside}) and migrated
 * by the built bin.
 *
 * @throws Error with what the bin printed when it exits with another code than 0.
 */
export async function migratedCopy(fixture: string): Promise<{ scratch: string; dir: string; migration: BinRun }> {
  const copy = copyFixtureOutside(fixture)
  const migration = await runBin([copy.dir])
  if (migration.code !== 0) throw new Error(`the codemod exited with ${String(migration.code)}:\n${migration.stdout}\n${migration.stderr}`)
  return { ...copy, migration }
}

/**
 * Installs a migrated app as its user would after the codemod: a plain `npm install` with npm's
 * defaults, our packages from the tarballs `pnpm pack` makes of this workspace's builds (in
 * `<scratch>/tarballs`). Returns the seconds it took.
 *
 * @throws Error with npm's output when the install fails (an `ERESOLVE` from a peer range included).
 */
export async function installPacked(scratch: string, dir: string): Promise<number> {
  const started = performance.now()
  await installPackedWithNpm(dir, { tarballs: join(scratch, "tarballs") })
  return (performance.now() - started) / 1000
}

/** The dependencies of an app's package.json. */
export function dependenciesOf(dir: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> }
  return manifest.dependencies ?? {}
}

/** A server the test started, at `url`. */
export interface StartedApp {
  url: string
  server: SpawnedServer
}

/**
 * Starts `node <args>` in `dir` on `port` (also given as `PORT`) with `env`, and waits until
 * `readyPath` answers.
 *
 * @throws Error with the server's output when it exits or does not answer in time.
 */
export async function startApp(dir: string, options: { port: number; args: string[]; env: NodeJS.ProcessEnv; readyPath?: string }): Promise<StartedApp> {
  const url = `http://127.0.0.1:${String(options.port)}`
  const server = spawnServer(process.execPath, options.args, { cwd: dir, env: { ...process.env, ...options.env, PORT: String(options.port) }, stopSignal: "SIGTERM", killSignal: "SIGKILL", outputLimit: 20_000, cleanup: () => undefined })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exited()) throw new Error(`the app exited:\n${server.output()}`)
    const answered = await fetch(url + (options.readyPath ?? "/"), { redirect: "manual" }).then(() => true, () => false)
    if (answered) return { url, server }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await server.stop()
  throw new Error(`the app did not answer within 60 s:\n${server.output()}`)
}

/** The client the fixtures' generic OpenID Connect provider ("sso") is registered as at the dev IdP. */
export const SSO_CLIENT = { id: "migrated-app", secret: "migrated-app-client-secret" }

/**
 * Starts the dev IdP for an app on `url` whose "sso" provider calls back at `callbackPath`, and
 * gives the app's provider what Portcullis needs to reach an IdP on plain-http loopback:
 * `allowInsecureLoopbackRequests: true` in the provider object of `configFile`. Auth.js allows
 * plain http to any issuer, Portcullis only to a loopback one that says so; a real IdP is https
 * and needs no change.
 */
export async function startSsoIdp(dir: string, configFile: string, url: string, callbackPath: string): Promise<{ env: NodeJS.ProcessEnv; idp: DevIdp }> {
  const file = join(dir, configFile)
  const text = readFileSync(file, "utf8")
  const marker = 'type: "oidc",'
  if (!text.includes(marker)) throw new Error(`${configFile} has no ${marker}`)
  writeFileSync(file, text.replace(marker, `${marker} allowInsecureLoopbackRequests: true,`))
  const idp = await startDevIdp({ clients: [{ client_id: SSO_CLIENT.id, client_secret: SSO_CLIENT.secret, redirect_uris: [url + callbackPath] }], consent: "auto" })
  return { idp, env: { AUTH_SSO_ISSUER: idp.issuer, AUTH_SSO_ID: SSO_CLIENT.id, AUTH_SSO_SECRET: SSO_CLIENT.secret } }
}
