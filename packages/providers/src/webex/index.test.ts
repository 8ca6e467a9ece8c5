import { Configuration } from "@portcullis/core/errors"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Webex from "./index.js"

const base = {
  fixture,
  user: {
    id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
    name: "Fatima Zahra",
    email: "fatima.zahra@example.com",
    image:
      "https://avatar-prod-us-east-2.webexcontent.com/Avtr~V1~1eb65fdf-9643-417f-9974-ad72cae0e10f/V1~b6b4e2e1a8b74f52a4c0f1e9d3c2b1a0~640",
  },
}

testProvider(Webex, base)

// Auth.js's `Webex({ apiBaseUrl })`: every endpoint at another Webex environment's API.
testProvider(Webex, {
  ...base,
  title: "apiBaseUrl",
  config: { apiBaseUrl: "https://api.webex.acme.example/v1/" },
})

describe("Webex apiBaseUrl", () => {
  it("puts every endpoint under it", () => {
    const provider = Webex({ apiBaseUrl: "https://api.webex.acme.example/v1" })
    expect([provider.authorization, provider.token, provider.userinfo].map((e) => (typeof e === "string" ? e : e?.url))).toEqual([
      "https://api.webex.acme.example/v1/authorize",
      "https://api.webex.acme.example/v1/access_token",
      "https://api.webex.acme.example/v1/people/me",
    ])
  })

  it("refuses a plain-http URL at start, naming the option", () => {
    expect(() => Webex({ apiBaseUrl: "http://webex.acme.example/v1" })).toThrow(Configuration)
    expect(() => Webex({ apiBaseUrl: "http://webex.acme.example/v1" })).toThrow(/`apiBaseUrl`/)
  })
})
