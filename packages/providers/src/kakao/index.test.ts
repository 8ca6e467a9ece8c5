import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Kakao from "./index.js"

testProvider(Kakao, {
  fixture,
  user: {
    id: "3189204765",
    name: "김서연",
    email: "seoyeon.kim@example.com",
    image: "https://k.kakaocdn.net/dn/bX9aZc/btsF2kQwP1r/Kq8dN3vX0mYzTt2Lp5Wf1k/img_640x640.jpg",
  },
})
