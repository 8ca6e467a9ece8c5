import { json } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { callbackUrl, signInUrl } from "../http/routes.js"

/** `GET /providers`: every configured provider, keyed by id. */
export function providers(context: RequestContext): Response {
  const body: Record<string, { id: string; name: string; type: string; signinUrl: string; callbackUrl: string }> = {}
  for (const provider of context.config.providers) {
    body[provider.id] = {
      id: provider.id,
      name: provider.name,
      type: provider.type,
      signinUrl: signInUrl(context, provider.id),
      callbackUrl: callbackUrl(context, provider.id),
    }
  }
  return json(context, body)
}
