import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import WorkOS from "./index.js"

const base = {
  fixture,
  user: {
    id: "prof_01HZ3W8Q4R7N2K5T9V6X1Y0ABC",
    name: "Oliver Bennett",
    email: "oliver.bennett@acme-corp.example",
    image: null,
  },
}

testProvider(WorkOS, base)

// Auth.js's `WorkOS({ connection })` names the SSO connection to sign in through.
testProvider(WorkOS, {
  ...base,
  title: "connection",
  config: { connection: "conn_01HZ3W8Q4R7N2K5T9V6X1Y0ABC" },
  authorizationParams: { connection: "conn_01HZ3W8Q4R7N2K5T9V6X1Y0ABC" },
})

describe("WorkOS connection", () => {
  it("sends no empty connection (an unset environment variable), and keeps the option off the provider", () => {
    const provider = WorkOS({ connection: "" })
    expect(provider.authorization).toEqual({ url: "https://api.workos.com/sso/authorize", params: {} })
    expect(provider).not.toHaveProperty("connection")
  })
})
