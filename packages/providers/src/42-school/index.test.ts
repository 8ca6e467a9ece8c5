import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import FortyTwo from "./index.js"

testProvider(FortyTwo, {
  fixture,
  user: {
    id: "104812",
    name: "Marion Lefevre",
    email: "mlefevre@student.42.fr",
    image: "https://cdn.intra.42.fr/users/3f1c2a9e0b7d4e51a6c8f0d2b4e6a8c1/mlefevre.jpg",
  },
})
