import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import ClickUp from "./index.js"

testProvider(ClickUp, {
  fixture,
  // ClickUp answers the code exchange with a bare `{ access_token }`.
  tokens: { token_type: undefined, expires_in: undefined, refresh_token: undefined, scope: undefined },
  user: {
    id: "48213907",
    name: "Dana Whitfield",
    email: "dana.whitfield@example.com",
    image: "https://attachments.clickup.com/profilePictures/48213907_Xq3.jpg",
  },
})
