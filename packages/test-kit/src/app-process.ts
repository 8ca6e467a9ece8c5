/**
 * An app in a Node process of its own (a TypeScript script run through tsx), as one of several
 * instances behind a load balancer: started, waited for until it listens, and stopped; and, in
 * that process, the handler served and its port announced.
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createInterface } from "node:readline"
import { serveHandler } from "./serve.js"

/** A running app process. */
export interface AppProcess {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  /** What it printed so far, a line an entry: for a failing test's message. */
  output: string[]
  process: ChildProcess
  /** Ends it with SIGTERM and waits for the exit; safe to call twice. */
  stop(): Promise<void>
}

/** Options of {@link startAppProcess}. */
export interface AppProcessOptions {
  /** The working directory, where `tsx` resolves (a package that has it as a devDependency). */
  cwd: string
  /**
   * The program and the arguments that come before `script`: another runtime (`["bun", "run"]`)
   * or a server whose port comes on a control stream. Default: this Node.js with `--import tsx`.
   */
  command?: readonly [string, ...string[]]
  /** Added to this process's environment. */
  env?: Record<string, string>
  /** How long to wait for it to listen, in ms (default 20 s; pass `scaled(20_000)`). */
  readyTimeout?: number
}

/** The port of a `{"port":N}` line; `undefined` for any other line the app prints. */
function portIn(line: string): number | undefined {
  if (!line.startsWith("{")) return undefined
  try {
    const { port } = JSON.parse(line) as { port?: unknown }
    return typeof port === "number" ? port : undefined
  } catch {
    return undefined
  }
}

/**
 * Runs `script` with `node --import tsx` (or `options.command`) and resolves once it prints a JSON
 * object with a numeric `port` (`{"port":N}`) on a line of its own, which the script does once it
 * listens on 127.0.0.1.
 *
 * @throws {Error} when it exits or stays silent past `readyTimeout`, with what it printed.
 *
 * @example
 * ```ts
 * const app = await startAppProcess(fileURLToPath(new URL("instance.ts", import.meta.url)), { cwd, env: { DATABASE_URL } })
 * await fetch(`${app.origin}/api/auth/csrf`)
 * await app.stop()
 * ```
 */
export function startAppProcess(script: string, options: AppProcessOptions): Promise<AppProcess> {
  const [program, ...args] = options.command ?? [process.execPath, "--import", "tsx"]
  const child = spawn(program, [...args, script], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const output: string[] = []
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => {
    resolve()
  }))
  // A test process that dies without stopping it must not leave it behind.
  const killOnExit = (): void => {
    child.kill("SIGKILL")
  }
  process.once("exit", killOnExit)
  const stop = async (): Promise<void> => {
    process.off("exit", killOnExit)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop().then(() => {
        reject(new Error(`${script} did not listen within ${String(options.readyTimeout ?? 20_000)} ms:\n${output.join("\n")}`))
      })
    }, options.readyTimeout ?? 20_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited (${String(code)}):\n${output.join("\n")}`))
    })
    createInterface({ input: child.stdout }).on("line", (line) => {
      output.push(line)
      const port = portIn(line)
      if (port !== undefined) {
        clearTimeout(timer)
        resolve({ origin: `http://127.0.0.1:${String(port)}`, output, process: child, stop })
      }
    })
  })
}

/**
 * In the app process: serves `handler` on 127.0.0.1 (`serveHandler`), prints `{"port":N}` for
 * {@link startAppProcess}, and on SIGTERM stops serving, runs `close` (end a pool, quit a client)
 * and exits.
 *
 * @example
 * ```ts
 * // test/instance.ts
 * await announceHandler((request) => Auth(request, config), () => pool.end())
 * ```
 */
export async function announceHandler(handler: (request: Request) => Response | Promise<Response>, close: () => unknown = () => undefined): Promise<void> {
  const served = await serveHandler(handler)
  process.once("SIGTERM", () => {
    void served
      .close()
      .then(close)
      .finally(() => process.exit(0))
  })
  console.log(JSON.stringify({ port: Number(new URL(served.origin).port) }))
}
