import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Box from "./index.js"

testProvider(Box, {
  fixture,
  user: {
    id: "11446498",
    name: "Aaron Levie",
    email: "ceo@example.com",
    image: "https://app.box.com/api/avatar/large/11446498",
  },
})
