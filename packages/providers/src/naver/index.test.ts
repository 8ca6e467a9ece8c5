import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Naver from "./index.js"

testProvider(Naver, {
  fixture,
  user: {
    id: "32742776-5d2a-4f0b-9c1e-7a8b6d3e2f10",
    name: "박지호",
    email: "jiho.park@example.com",
    image: "https://phinf.pstatic.net/contact/20230412_188/1681290012345Xy8Kq_JPEG/avatar.jpg",
  },
})
