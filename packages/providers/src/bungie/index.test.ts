import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Bungie from "./index.js"

testProvider(Bungie, {
  config: { apiKey: "0123456789abcdef0123456789abcdef" },
  fixture,
  // Bungie.net wraps every platform answer in this envelope; the hook unwraps `Response`.
  responses: {
    "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/": {
      Response: fixture,
      ErrorCode: 1,
      ThrottleSeconds: 0,
      ErrorStatus: "Success",
      Message: "Ok",
      MessageData: {},
    },
  },
  user: {
    id: "21873455",
    name: "Quillfeather",
    email: null,
    image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif",
  },
})

describe("Bungie configuration", () => {
  it("names the missing apiKey on the configuration it returns, without throwing", () => {
    expect(() => Bungie({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Bungie({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `apiKey` \(/)
    expect(incompleteProblem(Bungie({ clientId: "id", clientSecret: "secret", apiKey: "key" }))).toBeUndefined()
  })
})
