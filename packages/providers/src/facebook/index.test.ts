import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Facebook from "./index.js"

testProvider(Facebook, {
  fixture,
  user: {
    id: "10224587391056712",
    name: "Lucía Fernández",
    email: "lucia.fernandez@example.com",
    image:
      "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224587391056712&height=200&width=200&ext=1735689600&hash=AbYx3kQ7c2Vn1pLr",
  },
})
