import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Concept2 from "./index.js"

testProvider(Concept2, {
  fixture,
  user: {
    id: "1034567",
    name: "Ellie Marsh",
    email: "ellie.marsh@example.com",
    image: "https://log.concept2.com/uploads/profile/1034567_a1b2c3.jpg",
  },
})
