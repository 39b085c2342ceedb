// Puts a file into the emulator the way the API offers without a tus client: `POST /v2/files/fetch`
// from a loopback HTTP server the test owns.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { MediahostClient } from "../../../provider/client";

export async function putFile(api: MediahostClient, filename: string, content: string): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(content) });
    res.end(content);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    const { port } = server.address() as AddressInfo;
    const [result] = await api.ops.fetch({ body: [{ url: `http://127.0.0.1:${port}/file`, filename }] });
    if (!result?.success)
      throw new Error(`putFile ${filename}: the emulator's fetch failed: ${JSON.stringify(result)}`);
  } finally {
    await new Promise<void>((done) => server.close(() => done()));
  }
}
