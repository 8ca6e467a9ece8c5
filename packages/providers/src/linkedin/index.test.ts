import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import LinkedIn from "./index.js"

testProvider(LinkedIn, {
  fixture,
  user: {
    id: "xY3kP9qR2s",
    name: "Rahul Mehta",
    email: "rahul.mehta@example.com",
    image:
      "https://media.licdn.com/dms/image/v2/D4E03AQF0example/profile-displayphoto-shrink_100_100/0/1700000000000?e=1772668800&v=beta&t=exampletoken",
  },
})
