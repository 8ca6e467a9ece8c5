import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Pipedrive from "./index.js"

testProvider(Pipedrive, {
  fixture,
  user: {
    id: "11735029",
    name: "Daniel Kowalski",
    email: "daniel.kowalski@example.pl",
    image: "https://pipedrive-profile-pics.s3.amazonaws.com/4a6c0e1b9d2f3a8e7c5b1d0f9e8a7b6c_128.jpg",
  },
})
