import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Zoho from "./index.js"

testProvider(Zoho, {
  fixture,
  user: {
    id: "60012345678",
    name: "Arjun Mehta",
    email: "arjun.mehta@example.in",
    image: null,
  },
})
