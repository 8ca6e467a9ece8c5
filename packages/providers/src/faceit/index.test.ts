import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Faceit from "./index.js"

testProvider(Faceit, {
  fixture,
  user: {
    id: "5e2f8a31-9c4d-4b7e-a1f0-63d8b2c9e7a4",
    name: "s1lentKite",
    email: "kite.player@example.com",
    image: "https://distribution.faceit-cdn.net/images/5e2f8a31-9c4d-4b7e-a1f0-63d8b2c9e7a4.jpeg",
  },
})
