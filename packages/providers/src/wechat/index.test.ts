import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import WeChat from "./index.js"

testProvider(WeChat, {
  fixture,
  user: {
    id: "oR3xK5tS0l2M8nQ9pW4vY7zA1bC6",
    name: "李晓梅",
    email: null,
    image: "https://thirdwx.qlogo.cn/mmopen/vi_32/Q0j4TwGTfTKx8bR2c7yPzM3fVb1nLwK9uA5sD6eFgH0iJkLmNoPqRsTuVwXyZ/132",
  },
})
