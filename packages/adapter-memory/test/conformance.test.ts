import { runAdapterTests } from "@portcullis/adapter-test"
import { MemoryAdapter } from "../src/index.js"

runAdapterTests({ adapter: () => MemoryAdapter() })
