import { expect } from "vitest"
import { testEmailApiProvider } from "../../test/email-api.js"
import fixture from "./fixture.json" with { type: "json" }
import Postmark from "./index.js"

testEmailApiProvider(Postmark, {
  keyVariable: "AUTH_POSTMARK_KEY",
  config: { from: fixture.from },
  path: "/email",
  auth: ["x-postmark-server-token", "test-api-key"],
  link(body, recipient) {
    expect(body).toMatchObject({ From: fixture.from, To: recipient, Subject: "Sign in to localhost:3000", MessageStream: "outbound" })
    expect(body.HtmlBody).toContain("Sign in")
    return /http\S+/.exec(String(body.TextBody))?.[0] ?? ""
  },
  error: { status: 422, body: () => fixture.error },
})
