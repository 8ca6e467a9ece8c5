/**
 * `pnpm dev`: loads `.env` (saving a new AUTH_SECRET there at the first start), starts the app
 * on http://localhost:3000 with its Dev IdP, and prints where to go and how to sign in.
 */
import { fileURLToPath } from "node:url"

import { startExample } from "./app.js"
import { readDevEnv } from "./dev-env.js"
import { readPort, SettingsError } from "./settings.js"

const envFile = fileURLToPath(new URL("../.env", import.meta.url))

async function main(): Promise<void> {
  const { env, loaded, secretSaved } = readDevEnv(envFile, process.env)
  // As Node's loadEnvFile would: what the app's libraries read from process.env sees the file too.
  Object.assign(process.env, env)
  if (loaded) console.log(`Loaded ${envFile}`)
  const example = await startExample({
    env,
    port: readPort(env, "PORT", 3000),
    idpPort: readPort(env, "DEV_IDP_PORT", 4400),
  })
  const { username, password, passwordGenerated } = example.demoUser
  const passwordUser = example.passwordUser
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
  Password user, on the sign-in page: ${passwordUser.email} / ${passwordUser.passwordGenerated ? `${passwordUser.password}  (new at each start; set PASSWORD_USER_PASSWORD to keep one)` : "the password in PASSWORD_USER_PASSWORD"}
  Email sign-in: ${email}${secretSaved ? `\n  AUTH_SECRET: new, saved in ${envFile} (git-ignored), so sessions outlive a restart.` : ""}
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
