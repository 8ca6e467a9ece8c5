/**
 * The real providers the example offers next to its Dev IdP: each one switches on when both of
 * its `AUTH_<ID>_ID` and `AUTH_<ID>_SECRET` variables are set.
 */
import type { Provider } from "@portcullis/core"
import GitHub from "@portcullis/providers/github"
import Google from "@portcullis/providers/google"
import Twitter from "@portcullis/providers/twitter"
import Yandex from "@portcullis/providers/yandex"

import { readVariable, type Env } from "./settings.js"

/** A provider that needs an app registered with its owner before it can be used. */
export interface OptionalProvider {
  id: string
  name: string
  /** Where a developer registers the app and gets the client id and secret. */
  consoleUrl: string
  create: (credentials: { clientId: string; clientSecret: string }) => Provider
}

/** The optional providers, in sign-in page order. `.env.example` lists the same. */
export const OPTIONAL_PROVIDERS: readonly OptionalProvider[] = [
  { id: "twitter", name: "X (Twitter)", consoleUrl: "https://developer.x.com/en/portal/dashboard", create: Twitter },
  { id: "yandex", name: "Yandex", consoleUrl: "https://oauth.yandex.com/client/new", create: Yandex },
  { id: "github", name: "GitHub", consoleUrl: "https://github.com/settings/developers", create: GitHub },
  { id: "google", name: "Google", consoleUrl: "https://console.cloud.google.com/apis/credentials", create: Google },
]

/** The names of the variables holding a provider's client id and secret, as core reads them too. */
export function credentialVariables(id: string): { idVariable: string; secretVariable: string } {
  const stem = `AUTH_${id.toUpperCase().replace(/-/g, "_")}`
  return { idVariable: `${stem}_ID`, secretVariable: `${stem}_SECRET` }
}

/** Whether an optional provider is on, and the variables that switch it on. */
export interface ProviderStatus {
  id: string
  name: string
  enabled: boolean
  variables: [idVariable: string, secretVariable: string]
}

/** The optional providers that are on, the state of each, and what looks like a half-done set-up. */
export interface ProviderSelection {
  providers: Provider[]
  status: ProviderStatus[]
  warnings: string[]
}

/** Picks the optional providers whose credentials are both set in `env`. */
export function selectProviders(env: Env): ProviderSelection {
  const selection: ProviderSelection = { providers: [], status: [], warnings: [] }
  for (const candidate of OPTIONAL_PROVIDERS) {
    const { idVariable, secretVariable } = credentialVariables(candidate.id)
    const clientId = readVariable(env, idVariable)
    const clientSecret = readVariable(env, secretVariable)
    const enabled = clientId !== undefined && clientSecret !== undefined
    selection.status.push({ id: candidate.id, name: candidate.name, enabled, variables: [idVariable, secretVariable] })
    if (enabled) {
      selection.providers.push(candidate.create({ clientId, clientSecret }))
    } else if (clientId !== undefined || clientSecret !== undefined) {
      const [set, missing] = clientId === undefined ? [secretVariable, idVariable] : [idVariable, secretVariable]
      selection.warnings.push(`${set} is set but ${missing} is not: ${candidate.name} stays off until both are set.`)
    }
  }
  return selection
}
