import { expect } from "vitest"
import { testEmailApiProvider } from "../../test/email-api.js"
import fixture from "./fixture.json" with { type: "json" }
import SendGrid from "./index.js"

testEmailApiProvider(SendGrid, {
  keyVariable: "AUTH_SENDGRID_KEY",
  config: { from: fixture.from },
  path: "/v3/mail/send",
  auth: ["authorization", "Bearer test-api-key"],
  link(body, recipient) {
    expect(body).toMatchObject({
      personalizations: [{ to: [{ email: recipient }] }],
      from: { email: "no-reply@acme.example", name: "Acme Sign-in" },
      subject: "Sign in to localhost:3000",
      content: [{ type: "text/plain" }, { type: "text/html" }],
    })
    const [plain] = body.content as { value: string }[]
    return /http\S+/.exec(plain?.value ?? "")?.[0] ?? ""
  },
  error: { status: 403, body: () => fixture.error },
})
