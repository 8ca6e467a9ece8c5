import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import HubSpot from "./index.js"

testProvider(HubSpot, {
  fixture,
  // The profile is read from `/oauth/v1/access-tokens/{token}`, so the token is fixed to make that URL
  // known; it is the one the metadata answer itself names.
  tokens: { access_token: fixture.token },
  responses: { [`https://api.hubapi.com/oauth/v1/access-tokens/${fixture.token}`]: fixture },
  user: {
    id: "6274913",
    name: null,
    email: "sam.whitfield@example.com",
    image: null,
  },
})

describe("hubspot profile", () => {
  it("leaves a missing user_id missing", async () => {
    const { user_id: _missing, ...rest } = fixture
    const user = await HubSpot({ clientId: "id", clientSecret: "secret" }).profile?.(rest as never, {})
    expect(user?.id).toBeUndefined()
  })
})
