// The CLI the tests run: the one `npm test` builds with Cargo.toml's `ci` profile (the
// release build's code, compiled without LTO), or HOTROW_BIN's when it is set.
import { fileURLToPath } from "node:url";

export const hotrowBin = process.env.HOTROW_BIN || fileURLToPath(new URL("../target/ci/hotrow", import.meta.url));
