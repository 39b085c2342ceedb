// Puts a file into the emulator with the simple upload, as another writer of the account would.
import type { MediahostClient } from "../../../provider/client";

export async function putFile(
  api: MediahostClient,
  filename: string,
  content: string | Uint8Array,
): Promise<void> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  await api.ops.upload({ query: { filename }, body: { bytes } });
}
