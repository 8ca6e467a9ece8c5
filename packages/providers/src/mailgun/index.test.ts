import { describe, expect, it } from "vitest"
import { testEmailApiProvider } from "../../test/email-api.js"
import fixture from "./fixture.json" with { type: "json" }
import Mailgun from "./index.js"

testEmailApiProvider(Mailgun, {
  keyVariable: "AUTH_MAILGUN_KEY",
  config: { from: fixture.from, domain: fixture.domain },
  path: `/v3/${fixture.domain}/messages`,
  auth: ["authorization", `Basic ${Buffer.from("api:test-api-key").toString("base64")}`],
  link(body, recipient) {
    expect(body).toMatchObject({ from: fixture.from, to: recipient, subject: "Sign in to localhost:3000" })
    expect(body.html).toContain("Sign in")
    return /http\S+/.exec(String(body.text))?.[0] ?? ""
  },
  error: { status: 401, body: () => fixture.error },
})

describe("Mailgun()", () => {
  const options = { apiKey: "k", from: fixture.from, domain: fixture.domain }

  it("sends to the US region by default and to the EU region with region: \"eu\"", () => {
    expect(Mailgun(options).apiUrl).toBe("https://api.mailgun.net")
    expect(Mailgun({ ...options, region: "eu" }).apiUrl).toBe("https://api.eu.mailgun.net")
  })

  it("takes Auth.js's region spelling, \"US\" or \"EU\"", () => {
    expect(Mailgun({ ...options, region: "EU" }).apiUrl).toBe("https://api.eu.mailgun.net")
    expect(Mailgun({ ...options, region: "US" }).apiUrl).toBe("https://api.mailgun.net")
  })

  it("sends from the domain of `from` when `domain` is not set, as Auth.js does", () => {
    expect(Mailgun({ apiKey: "k", from: fixture.from }).domain).toBe("mg.acme.example")
    expect(Mailgun({ apiKey: "k", from: "no-reply@mg.acme.example" }).domain).toBe("mg.acme.example")
  })

  it("names `from` at start when it is missing", () => {
    expect(() => Mailgun({ apiKey: "k" })).toThrow(/set `from`/)
  })

  it("names `domain` and `region` when they are wrong", () => {
    expect(() => Mailgun({ ...options, domain: "" })).toThrow(/set `domain`/)
    expect(() => Mailgun({ ...options, domain: "mg.acme.example/../../v4" })).toThrow(/set `domain`/)
    expect(() => Mailgun({ ...options, region: "asia" as never })).toThrow(/`region`/)
  })
})
