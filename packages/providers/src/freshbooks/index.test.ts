import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import FreshBooks from "./index.js"

testProvider(FreshBooks, {
  fixture,
  user: { id: "2192788", name: "Marisol Vega", email: "marisol@vegastudio.example.com", image: null },
})
