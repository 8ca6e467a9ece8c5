import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import SimpleLogin from "./index.js"

testProvider(SimpleLogin, {
  fixture,
  user: {
    id: "482913",
    name: "Chidi Anagonye",
    email: "ample.kitten731@simplelogin.com",
    image: "https://simplelogin.s3.amazonaws.com/profile_picture/482913/avatar.jpg",
  },
})
