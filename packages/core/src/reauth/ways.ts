/**
 * The ways a signed-in user can prove it is still them, in the order the page offers them: a
 * passkey, an authenticator app's code, a password (credentials), an OpenID provider they linked,
 * a link to their verified address. Each is offered only when this user has it and its provider's
 * flow says it can (`SignInFlow.reauth`).
 */
import type { AdapterUser } from "../adapters.js"
import type { FlowProvider, PageField, RequestContext } from "../internal.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { linkedAccounts } from "../sign-in/ways-in.js"

/** The route of an authenticator app's code under `/reauth` (unless a provider has this id), and the `provider` its audit events name. */
export const TOTP_WAY = "totp"

/** One way to re-authenticate, as the page and its JSON name it. */
export type ReauthKind = "passkey" | "totp" | "credentials" | "oidc" | "email"

/** A way this user has, with the provider it goes through (none for an authenticator app's code). */
export interface ReauthWay {
  kind: ReauthKind
  provider?: FlowProvider
  /** A credentials provider's fields, as its flow draws them. */
  fields?: readonly PageField[]
}

/** The order the ways are offered in: the strongest first. */
const ORDER: readonly ReauthKind[] = ["passkey", "totp", "credentials", "oidc", "email"]

/** What a provider's type makes of it here; `undefined` for a flow that cannot re-authenticate (OAuth 1.0a). */
function kindOf(provider: FlowProvider): ReauthKind | undefined {
  if (provider.flow.reauth?.offers(provider.options) !== true) return undefined
  switch (provider.type) {
    case "webauthn":
      return "passkey"
    case "credentials":
      return "credentials"
    case "oidc":
    case "oauth":
      return "oidc"
    case "email":
      return "email"
    default:
      return undefined
  }
}

async function hasWay(context: RequestContext, provider: FlowProvider, kind: ReauthKind, user: AdapterUser | undefined): Promise<boolean> {
  const { adapter } = context.config
  // Core cannot know who has a password under `Credentials()`: `authorize` answering this user's id is the proof.
  // A flow that keeps passwords (`Password()`) says whether this user has one.
  if (kind === "credentials") return provider.flow.waysIn === undefined || user === undefined || (await provider.flow.waysIn(context, provider, user)).length > 0
  if (adapter === undefined || user === undefined) return false
  if (kind === "oidc") return ((await linkedAccounts(adapter, user.id)) ?? []).some((account) => account.provider === provider.id)
  if (kind === "passkey") return ((await provider.flow.waysIn?.(context, provider, user)) ?? []).length > 0
  return kind === "email" && user.email != null && user.emailVerified != null
}

/**
 * The ways `userId` can re-authenticate, strongest first. Without an adapter only a credentials
 * provider can be offered: nothing else tells which user owns a passkey, an account or an address.
 * `extra` are the ways found outside the providers (an authenticator app).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function reauthWays(context: RequestContext, userId: string, extra: readonly ReauthWay[] = []): Promise<ReauthWay[]> {
  const { adapter, providers } = context.config
  const user = adapter === undefined ? undefined : storedUser(await callAdapter(adapter, "getUser", userId))
  const ways: ReauthWay[] = [...extra]
  for (const provider of providers) {
    const kind = kindOf(provider)
    if (kind === undefined || !(await hasWay(context, provider, kind, user))) continue
    const fields = kind === "credentials" ? (await provider.flow.draw?.(context, provider, { refused: false }))?.fields : undefined
    ways.push(fields === undefined ? { kind, provider } : { kind, provider, fields })
  }
  return ways.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind))
}

/** The way through `providerId` when this user has it. */
export async function reauthWayOf(context: RequestContext, userId: string, providerId: string): Promise<ReauthWay | undefined> {
  const provider = context.config.providersById.get(providerId)
  const kind = provider === undefined ? undefined : kindOf(provider)
  if (provider === undefined || kind === undefined) return undefined
  const { adapter } = context.config
  const user = adapter === undefined ? undefined : storedUser(await callAdapter(adapter, "getUser", userId))
  return (await hasWay(context, provider, kind, user)) ? { kind, provider } : undefined
}
