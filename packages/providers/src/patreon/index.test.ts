import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Patreon from "./index.js"

testProvider(Patreon, {
  fixture,
  user: {
    id: "64192837",
    name: "Inès Moreau",
    email: "ines.moreau@example.fr",
    image: "https://c8.patreon.com/3/200/64192837",
  },
})
