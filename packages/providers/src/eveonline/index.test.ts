import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import EVEOnline from "./index.js"

testProvider(EVEOnline, {
  fixture,
  user: {
    id: "2112625428",
    name: "Aria Vellan",
    email: null,
    image: "https://images.evetech.net/characters/2112625428/portrait?size=128",
  },
})
