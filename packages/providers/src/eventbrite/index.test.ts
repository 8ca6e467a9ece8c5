import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Eventbrite from "./index.js"

testProvider(Eventbrite, {
  fixture,
  user: { id: "183702649512", name: "Tomas Okafor", email: "tomas.okafor@example.com", image: null },
})
