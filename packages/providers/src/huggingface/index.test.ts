import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import HuggingFace from "./index.js"

testProvider(HuggingFace, {
  fixture,
  user: {
    id: "64a1f3c2b9e07d5a18c4e2f1",
    name: "Kenji Watanabe",
    email: "kenji.watanabe@example.com",
    image: "https://cdn-avatars.huggingface.co/v1/production/uploads/64a1f3c2b9e07d5a18c4e2f1/kw.png",
  },
})
