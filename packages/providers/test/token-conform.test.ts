// The providers that rewrite a non-standard token response must survive a hostile one: a body
// that is not JSON or is too large fails as a typed error (or is left to core's validation),
// never as a parse error that quotes the body, where a token may sit, into the log.
import { OAuthCallbackError } from "@portcullis/core/errors"
import type { OAuthConfig } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import ClickUp from "../src/click-up/index.js"
import Instagram from "../src/instagram/index.js"
import Mailchimp from "../src/mailchimp/index.js"
import Medium from "../src/medium/index.js"
import Notion from "../src/notion/index.js"
import Threads from "../src/threads/index.js"
import Twitch from "../src/twitch/index.js"
import Vk from "../src/vk/index.js"

const providers: OAuthConfig<never>[] = [ClickUp(), Instagram(), Mailchimp(), Medium(), Notion(), Threads(), Twitch(), Vk()].map((provider) => provider as OAuthConfig<never>)

function conformOf(provider: OAuthConfig<never>): (response: Response) => Promise<Response | undefined> {
  const token = provider.token
  if (typeof token !== "object" || token.conform === undefined) throw new Error(`${provider.id} declares no token.conform`)
  const conform = token.conform
  return async (response) => conform(response)
}

describe.each(providers.map((provider) => [provider.id, provider] as const))("%s token.conform", (_id, provider) => {
  const conform = conformOf(provider)

  it("leaves a body that is not JSON to core instead of throwing a parse error that quotes it", async () => {
    await expect(conform(new Response("at=secret-token-1234", { headers: { "content-type": "application/json" } }))).resolves.toBeUndefined()
  })

  it("leaves a JSON array to core", async () => {
    await expect(conform(Response.json([{ access_token: "at" }]))).resolves.toBeUndefined()
  })

  it("refuses a body over 1 MiB with a typed error that does not quote it", async () => {
    const huge = JSON.stringify({ access_token: "s".repeat(2 * 1024 * 1024) })
    const refusal = await conform(new Response(huge)).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(OAuthCallbackError)
    expect((refusal as Error).message).not.toContain("sss")
  })

  it("leaves an error answer for core to report", async () => {
    const raw = Response.json({ error: "invalid_grant" }, { status: 400 })
    const answer = (await conform(raw.clone())) ?? raw
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ error: "invalid_grant" })
  })
})
