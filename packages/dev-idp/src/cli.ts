#!/usr/bin/env node
/**
 * `npx @portcullis/dev-idp`: see `./command.ts`.
 *
 * @module
 */
import { USAGE, UsageError, readCommandLine, runCommand } from "./command.js"

async function main(): Promise<void> {
  const options = readCommandLine(process.argv.slice(2))
  if (options === "help") {
    process.stdout.write(USAGE)
    return
  }
  const idp = await runCommand(options, (text) => process.stdout.write(text))
  const stop = () => {
    void idp.close().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}`)
    process.exitCode = 2
    return
  }
  const code = (error as { code?: unknown }).code
  process.stderr.write(
    code === "EADDRINUSE"
      ? `The port is already in use: stop what listens there, or choose another with --port (the printed issuer changes with it).\n`
      : `${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exitCode = 1
})
