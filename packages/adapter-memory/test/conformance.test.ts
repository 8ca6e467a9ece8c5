import { runAdapterTests } from "@auth/adapter-test"
import { MemoryAdapter } from "../src/index.js"

runAdapterTests({ adapter: () => MemoryAdapter() })
