import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Vipps from "./index.js"

testProvider(Vipps, {
  fixture,
  user: {
    id: "c06c4afe-d9e1-4c5d-939a-177d752a0944",
    name: "Kari Nordmann",
    email: "kari.nordmann@example.no",
    image: null,
  },
})
