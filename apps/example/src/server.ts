/**
 * `pnpm dev`: loads `.env`, starts the app on http://localhost:3000 with its Dev IdP, and
 * prints where to go and how to sign in.
 */
import { fileURLToPath } from "node:url"

import { startExample } from "./app.js"
import { readPort, SettingsError } from "./settings.js"

const envFile = fileURLToPath(new URL("../.env", import.meta.url))

/**
 * Loads `path` into `process.env` with Node's own parser, which keeps variables already set in
 * the shell. Answers whether there was a file: it is optional.
 */
function loadEnvFile(path: string): boolean {
  try {
    process.loadEnvFile(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false
    throw error
  }
}

async function main(): Promise<void> {
  if (loadEnvFile(envFile)) console.log(`Loaded ${envFile}`)
  const example = await startExample({
    env: process.env,
    port: readPort(process.env, "PORT", 3000),
    idpPort: readPort(process.env, "DEV_IDP_PORT", 4400),
  })
  const { username, password, passwordGenerated } = example.demoUser
  const accounts = example.idp.accounts.map((account) => `${account.email} / ${account.password}`).join(" or ")
  const email = {
    smtp: "links are emailed through AUTH_EMAIL_SERVER.",
    terminal: "links are printed here (set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM to email them).",
    off: "off (set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM).",
  }[example.emailDelivery]
  console.log(`
  Auth example is running at ${example.url}

  Dev IdP (a local OpenID Provider): ${example.idp.issuer}
  Sign in as ${accounts}.

  Demo user, on the sign-in page: ${username} / ${passwordGenerated ? `${password}  (new at each start; set DEMO_USER_PASSWORD to keep one)` : "the password in DEMO_USER_PASSWORD"}
  Email sign-in: ${email}
  Press Ctrl+C to stop.
`)
  const stop = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping.`)
    void example.close().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

main().catch((error: unknown) => {
  // A setting to fix is explained in one line; anything else deserves its stack.
  console.error(error instanceof SettingsError ? `\nCannot start: ${error.message}\n` : error)
  process.exit(1)
})
