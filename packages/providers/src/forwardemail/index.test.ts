import { expect } from "vitest"
import { testEmailApiProvider } from "../../test/email-api.js"
import fixture from "./fixture.json" with { type: "json" }
import ForwardEmail from "./index.js"

testEmailApiProvider(ForwardEmail, {
  keyVariable: "AUTH_FORWARDEMAIL_KEY",
  config: { from: fixture.from },
  path: "/v1/emails",
  auth: ["authorization", `Basic ${Buffer.from("test-api-key:").toString("base64")}`],
  link(body, recipient) {
    expect(body).toMatchObject({ from: fixture.from, to: recipient, subject: "Sign in to localhost:3000" })
    expect(body.html).toContain("Sign in")
    return /http\S+/.exec(String(body.text))?.[0] ?? ""
  },
  error: { status: 401, body: () => fixture.error },
})
