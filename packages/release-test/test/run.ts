import { execFile } from "node:child_process"

/** What a finished command printed. */
export interface Output {
  stdout: string
  stderr: string
}

/** Options of {@link run}. */
export interface RunOptions {
  cwd: string
  env: NodeJS.ProcessEnv
}

/**
 * Runs a command to completion.
 *
 * @throws Error carrying the command, its exit code and everything it printed, when it fails.
 */
export function run(command: string, args: string[], options: RunOptions): Promise<Output> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ stdout, stderr })
        return
      }
      reject(new Error(`\`${command} ${args.join(" ")}\` in ${options.cwd} failed (${String(error.code)}):\n${stdout}\n${stderr}`))
    })
  })
}

/**
 * The environment for npm, pnpm and changesets: the `npm_config_*` variables `pnpm run` passes
 * down are dropped so that only `registry`, the `npmrc` user config and `cache` apply.
 */
export function npmEnv(registry: string, npmrc: string, cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_config_/i.test(name) && !/^pnpm_/i.test(name)) env[name] = value
  }
  return {
    ...env,
    // changesets reads the registry from here for `npm info` and hands it to `pnpm publish`:
    // when publishing, it must be the rehearsal's, or both would talk to the public registry.
    npm_config_registry: registry,
    npm_config_userconfig: npmrc,
    npm_config_cache: cache,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "warn",
  }
}
