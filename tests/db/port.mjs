// A loopback port for a test's server, shared by the database helpers.
import { createServer } from "node:net";

/** A loopback port nobody listens on now. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
