/**
 * Loads `apps/example/.env` (git-ignored) into the environment, the way `node --env-file` does:
 * Node's own parser, and variables already set in the shell win over the file.
 */
import { readFileSync } from "node:fs"
import { parseEnv } from "node:util"

/**
 * Copies the variables of the `.env` file at `path` into `env` where `env` has none yet, and
 * returns their names; `undefined` when there is no such file.
 *
 * @throws Error when the file exists but cannot be read.
 */
export function loadEnvFile(path: string, env: Record<string, string | undefined>): string[] | undefined {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw error
  }
  const loaded: string[] = []
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined || env[name] !== undefined) continue
    env[name] = value
    loaded.push(name)
  }
  return loaded
}
