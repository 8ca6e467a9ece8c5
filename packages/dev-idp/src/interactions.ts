import type Provider from "oidc-provider"
import type { InteractionResults, errors } from "oidc-provider"

import { PAGE_CSP, renderAvatar, renderConsentPage, renderErrorPage, renderLoginPage } from "./pages.js"

/** A Koa middleware as oidc-provider's `use()` accepts it (Koa's own types are not a direct dependency). */
export type ProviderMiddleware = Parameters<Provider["use"]>[0]
type ProviderContext = Parameters<ProviderMiddleware>[0]

/** A demo account after defaults are applied. */
export interface StoredAccount {
  readonly sub: string
  readonly email: string
  readonly email_verified: boolean
  readonly name: string
  readonly picture: string | undefined
  readonly password: string
  readonly amr: readonly string[]
  readonly acr?: string | undefined
}

/** What the interaction pages need to know about the dev IdP. */
export interface InteractionSettings {
  title: string
  consent: "prompt" | "auto"
  accounts: readonly StoredAccount[]
  /** oidc-provider's error class for a missing interaction, from the module the provider was loaded from. */
  SessionNotFound: typeof errors.SessionNotFound
}

const INTERACTION_PATH = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/u
const AVATAR_PATH = /^\/avatars\/([^/]+)\.svg$/u
const MAX_FORM_BYTES = 64 * 1024

interface ConsentDetails {
  missingOIDCScope?: string[]
  missingOIDCClaims?: string[]
  missingResourceScopes?: Record<string, string[]>
}

/**
 * Serves the dev IdP's own pages in front of oidc-provider: the login and consent steps of an
 * interaction (`/interaction/:uid`, with `login`, `confirm` and `abort` form posts) and the
 * accounts' default avatars (`/avatars/:sub.svg`).
 */
export function interactionPages(provider: Provider, settings: InteractionSettings): ProviderMiddleware {
  return async (ctx, next) => {
    const avatar = AVATAR_PATH.exec(ctx.path)
    if (avatar !== null) {
      serveAvatar(ctx, settings, decodeURIComponent(avatar[1] ?? ""))
      return
    }
    const match = INTERACTION_PATH.exec(ctx.path)
    if (match === null) {
      await next()
      return
    }
    const uid = match[1] ?? ""
    const action = match[2] as "login" | "confirm" | "abort" | undefined
    ctx.set("cache-control", "no-store")
    const allowed = action === undefined ? ["GET", "HEAD"] : ["POST"]
    if (!allowed.includes(ctx.method)) {
      ctx.set("allow", allowed.join(", "))
      sendError(ctx, settings, 405, "method_not_allowed", `use ${allowed.join(" or ")} for this page`)
      return
    }
    try {
      const interaction = await provider.interactionDetails(ctx.req, ctx.res)
      if (interaction.uid !== uid) {
        sendError(ctx, settings, 400, "interaction_mismatch", "this page belongs to another sign-in attempt")
        return
      }
      const prompt = interaction.prompt.name
      if (action === "abort") {
        const result = { error: "access_denied", error_description: "End-User aborted interaction" }
        await finish(ctx, provider, result, false)
      } else if (prompt === "login" && action === undefined) {
        const loginHint = interaction.params.login_hint
        sendHtml(
          ctx,
          200,
          renderLoginPage({
            ...(await pageContext(provider, settings, uid, interaction.params.client_id)),
            ...(typeof loginHint === "string" ? { login: loginHint } : {}),
          }),
        )
      } else if (prompt === "login" && action === "login") {
        const form = await readForm(ctx)
        const login = form.get("login") ?? ""
        const account = findByLogin(settings.accounts, login)
        if (account === undefined || account.password !== form.get("password")) {
          sendHtml(
            ctx,
            200,
            renderLoginPage({
              ...(await pageContext(provider, settings, uid, interaction.params.client_id)),
              login,
              error: "Wrong email or password. Try one of the demo accounts below.",
            }),
          )
          return
        }
        await finish(ctx, provider, { login: { accountId: account.sub, amr: [...account.amr], ...(account.acr === undefined ? {} : { acr: account.acr }) } }, false)
      } else if (prompt === "consent" && (action === "confirm" || settings.consent === "auto")) {
        const grantId = await saveGrant(provider, interaction)
        await finish(ctx, provider, { consent: { grantId } }, true)
      } else if (prompt === "consent" && action === undefined) {
        const details = interaction.prompt.details as ConsentDetails
        const account = settings.accounts.find((candidate) => candidate.sub === interaction.session?.accountId)
        sendHtml(
          ctx,
          200,
          renderConsentPage({
            ...(await pageContext(provider, settings, uid, interaction.params.client_id)),
            accountLabel: account?.email ?? interaction.session?.accountId ?? "",
            scopes: details.missingOIDCScope ?? [],
            claims: details.missingOIDCClaims ?? [],
          }),
        )
      } else {
        sendError(ctx, settings, 400, "invalid_request", `the "${prompt}" step cannot handle this request`)
      }
    } catch (error) {
      if (error instanceof settings.SessionNotFound) {
        // The interaction cookie is path-scoped and short-lived: a missing one usually means the
        // attempt expired, or a client (or test browser) dropped cookies on the way here.
        sendError(ctx, settings, 400, "interaction_expired", "this sign-in attempt was not found or has expired")
        return
      }
      throw error
    }
  }
}

async function pageContext(provider: Provider, settings: InteractionSettings, uid: string, clientId: unknown) {
  const client = typeof clientId === "string" ? await provider.Client.find(clientId) : undefined
  return {
    title: settings.title,
    uid,
    clientName: client?.clientName ?? (typeof clientId === "string" ? clientId : "the application"),
    accounts: settings.accounts.map((account) => ({
      name: account.name,
      email: account.email,
      emailVerified: account.email_verified,
      password: account.password,
    })),
  }
}

function findByLogin(accounts: readonly StoredAccount[], login: string): StoredAccount | undefined {
  const wanted = login.trim().toLowerCase()
  return accounts.find((account) => account.email.toLowerCase() === wanted || account.sub === login.trim())
}

async function saveGrant(provider: Provider, interaction: Awaited<ReturnType<Provider["interactionDetails"]>>) {
  const details = interaction.prompt.details as ConsentDetails
  const existing = interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)
  const grant =
    existing ??
    new provider.Grant({
      accountId: interaction.session?.accountId,
      clientId: String(interaction.params.client_id),
    })
  if (details.missingOIDCScope !== undefined) grant.addOIDCScope(details.missingOIDCScope)
  if (details.missingOIDCClaims !== undefined) grant.addOIDCClaims(details.missingOIDCClaims)
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(" "))
  }
  return grant.save()
}

async function finish(ctx: ProviderContext, provider: Provider, result: InteractionResults, merge: boolean) {
  const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge })
  ctx.status = 303
  ctx.redirect(returnTo)
}

async function readForm(ctx: ProviderContext): Promise<URLSearchParams> {
  if (!ctx.is("application/x-www-form-urlencoded")) return new URLSearchParams()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_FORM_BYTES) ctx.throw(413, "form body too large")
    chunks.push(chunk)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
}

function sendHtml(ctx: ProviderContext, status: number, html: string) {
  ctx.status = status
  ctx.type = "html"
  ctx.set("content-security-policy", PAGE_CSP)
  ctx.body = html
}

function sendError(ctx: ProviderContext, settings: InteractionSettings, status: number, error: string, description: string) {
  sendHtml(ctx, status, renderErrorPage(settings.title, error, description))
}

function serveAvatar(ctx: ProviderContext, settings: InteractionSettings, sub: string) {
  const account = settings.accounts.find((candidate) => candidate.sub === sub)
  if (account === undefined || (ctx.method !== "GET" && ctx.method !== "HEAD")) {
    ctx.status = 404
    return
  }
  ctx.type = "image/svg+xml"
  ctx.set("cache-control", "public, max-age=3600")
  ctx.set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
  ctx.body = renderAvatar(account.name)
}
