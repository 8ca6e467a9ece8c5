/**
 * The Next.js app laid out as next-auth v5's example (test/fixtures/next-app), taken through what a
 * user does: the built codemod, a plain `npm install` of our packed packages next to Next 16 and the
 * React the app pins, `next build`, `next start`, with its generic OpenID Connect provider pointed
 * at the local identity provider (@portcullis/dev-idp). Shared by next-app.test.ts (React 19) and
 * next-app-react18.test.ts (React 18.2).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { DevIdp } from "@portcullis/dev-idp"
import { freePort } from "@portcullis/test-kit/system"
import { copyFixtureOutside, installPacked, runBin, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"

/** As `openssl rand -base64 32` writes one: the app runs under NODE_ENV=production, where core refuses a weak secret. */
const SECRET = "I6woDCwU/W908LdjPsUyhpTgirkjPVDkEU+Gtm/56nU="

/** The React an example app is installed with: the fixture's own (19), or next-auth's example's 18.2. */
export type ReactLine = "19" | "18.2"

/** A migrated, installed, built and started example app. */
export interface NextExample {
  dir: string
  migration: BinRun
  app: StartedApp
  issuer: string
  seconds: { install: number; build: number }
}

/** What {@link startNextExample} started, for afterAll; filled in as each part starts. */
export interface NextExampleCleanup {
  scratch?: string
  app?: StartedApp
  idp?: DevIdp
}

/** Pins React 18.2 and its types, as next-auth's Next.js example does, in the app's package.json. */
function pinReact18(dir: string): void {
  const file = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> }
  manifest.dependencies.react = "18.2.0"
  manifest.dependencies["react-dom"] = "18.2.0"
  manifest.devDependencies["@types/react"] = "^18.2.23"
  manifest.devDependencies["@types/react-dom"] = "^18.2.8"
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}

/** The app's own tsc, as `npx tsc` runs it: resolves with what it printed, empty when clean. */
export function typeCheck(dir: string): Promise<string> {
  return runFile(process.execPath, [join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir], { encoding: "utf8" }).then(
    () => "",
    (error: unknown) => (error as { stdout?: string }).stdout ?? String(error),
  )
}

/**
 * Copies the example, pins `react`, migrates it, installs it with npm, builds it and starts it.
 *
 * @throws Error with the failing step's output (npm's ERESOLVE, next build's errors, the server's log).
 */
export async function startNextExample(react: ReactLine, cleanup: NextExampleCleanup): Promise<NextExample> {
  const { scratch, dir } = copyFixtureOutside("next-app")
  cleanup.scratch = scratch
  if (react === "18.2") pinReact18(dir)
  const migration = await runBin([dir])
  if (migration.code !== 0) throw new Error(`the codemod exited with ${String(migration.code)}:\n${migration.stdout}\n${migration.stderr}`)
  const port = await freePort()
  const url = `http://127.0.0.1:${String(port)}`
  const [install, sso] = await Promise.all([installPacked(scratch, dir), startSsoIdp(dir, "auth.ts", url, "/auth/callback/sso")])
  cleanup.idp = sso.idp
  const next = join(dir, "node_modules", "next", "dist", "bin", "next")
  const started = performance.now()
  await runFile(process.execPath, [next, "build"], { cwd: dir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" } })
  const build = (performance.now() - started) / 1000
  console.info(`React ${react} example: npm install ${install.toFixed(1)} s, next build ${build.toFixed(1)} s`)
  const app = (cleanup.app = await startApp(dir, {
    port,
    args: [next, "start", "-p", String(port), "-H", "127.0.0.1"],
    env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", AUTH_URL: `${url}/auth`, AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "github-client-id", AUTH_GITHUB_SECRET: "github-client-secret", ...sso.env },
    readyPath: "/auth/providers",
  }))
  return { dir, migration, app, issuer: sso.idp.issuer, seconds: { install, build } }
}

/** Stops what {@link startNextExample} started and removes the app's folder. */
export async function stopNextExample(cleanup: NextExampleCleanup): Promise<void> {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.scratch !== undefined) rmSync(cleanup.scratch, { recursive: true, force: true })
}
