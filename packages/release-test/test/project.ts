/**
 * A fresh npm project, as an app author creates one: installs from the rehearsal registry with
 * npm's default peer resolution (no --legacy-peer-deps), then runs the fixture app.
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import { copyFile, mkdir, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { run, type Output } from "./run.js"
import { scaled } from "@portcullis/test-time"

const APP = join(import.meta.dirname, "fixtures", "app.mjs")

/** A project folder and the environment its npm runs with. */
export interface Project {
  dir: string
  env: NodeJS.ProcessEnv
  /** `npm <args>` in the project. */
  npm(...args: string[]): Promise<Output>
}

/**
 * Creates `dir` with a bare package.json, an `.npmrc` that takes the `@portcullis` scope from
 * `authRegistry` (everything else comes from the registry in `env`), and the fixture app.
 */
export async function createProject(dir: string, env: NodeJS.ProcessEnv, authRegistry: string): Promise<Project> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "rehearsal-app", private: true, type: "module" }, null, 2))
  await writeFile(join(dir, ".npmrc"), `@portcullis:registry=${authRegistry}\n`)
  await copyFile(APP, join(dir, "app.mjs"))
  return { dir, env, npm: (...args) => run("npm", args, { cwd: dir, env }) }
}

/** A free TCP port on 127.0.0.1, so the IdP can register the app's callback before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  server.close()
  if (address === null || typeof address === "string") throw new Error("no port")
  return address.port
}

/** `npx @portcullis/dev-idp` running in a project, and the provider it printed. */
export interface RunningDevIdp {
  issuer: string
  clientId: string
  clientSecret: string
  /** Everything it wrote to stderr so far. */
  stderr(): string
  close(): Promise<void>
}

/**
 * Runs `npx @portcullis/dev-idp <args>` in the project, as its README says, and reads the
 * provider it prints.
 *
 * @throws Error with what it printed when it exits or prints no provider within 30 s.
 */
export async function startDevIdpBin(project: Project, args: string[]): Promise<RunningDevIdp> {
  // Its own process group: npx runs the bin in a child, and close() must stop both.
  const child = spawn("npx", ["@portcullis/dev-idp", ...args], { cwd: project.dir, env: project.env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const lines = createInterface({ input: child.stdout })
  const timer = setTimeout(() => process.kill(-(child.pid ?? 0)), scaled(30_000))
  let printed = ""
  for await (const line of lines) {
    printed += `${line}\n`
    if (line.startsWith("Stop it with")) break
  }
  clearTimeout(timer)
  child.stdout.resume()
  const value = (name: string) => new RegExp(`^\\s+${name}: "([^"]+)",`, "m").exec(printed)?.[1]
  const [issuer, clientId, clientSecret] = [value("issuer"), value("clientId"), value("clientSecret")]
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
    child.kill()
    throw new Error(`npx @portcullis/dev-idp printed no provider in ${project.dir}:\n${printed}\n${stderr}`)
  }
  return {
    issuer,
    clientId,
    clientSecret,
    stderr: () => stderr,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      process.kill(-(child.pid ?? 0), "SIGTERM")
      await once(child, "exit")
    },
  }
}

/** The fixture app, running. */
export interface RunningApp {
  url: string
  close(): Promise<void>
}

/**
 * Starts the project's app on `port` against `issuer`.
 *
 * @throws Error with what the app printed when it exits or does not listen within 15 s.
 */
export async function startApp(project: Project, port: number, env: Record<string, string>): Promise<RunningApp> {
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ["app.mjs"], {
    cwd: project.dir,
    env: { ...process.env, ...env, PORT: String(port), AUTH_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let printed = ""
  child.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()))
  const lines = createInterface({ input: child.stdout })
  const timer = setTimeout(() => child.kill(), scaled(15_000))
  let listening = false
  for await (const line of lines) {
    printed += `${line}\n`
    if (line.startsWith("listening on")) {
      listening = true
      break
    }
  }
  clearTimeout(timer)
  // Leaving the loop closed the line reader: keep draining so the app never blocks on a full pipe.
  child.stdout.resume()
  if (!listening) throw new Error(`the app in ${project.dir} did not start:\n${printed}`)
  return {
    url,
    async close() {
      if (child.exitCode !== null) return
      child.kill()
      await once(child, "exit")
    },
  }
}
