// The native face's entry: `pulumi-resource-mediahost [--logtostderr] [-v=N] [--tracing URL]
// [ENGINE_ADDRESS]`, as the Pulumi engine starts a provider plugin. It serves the provider on a
// free loopback port and prints the port as its first line on stdout (nothing may come before
// it). The engine stops the process when it is done with it; an engine that went away without
// doing so (a killed `pulumi up`) is noticed, and the plugin exits too.
import { connect } from "node:net";
import { NativeProvider, serveProvider } from "./server";

/** How often the plugin checks that the engine is still there. */
const HEALTH_CHECK_MS = 2_000;

/** Whether something still listens at `host:port`. */
function listening(address: string): Promise<boolean> {
  const cut = address.lastIndexOf(":");
  return new Promise((resolve) => {
    const socket = connect({ host: address.slice(0, cut), port: Number(address.slice(cut + 1)) });
    socket.setTimeout(HEALTH_CHECK_MS);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(true); // slow, not gone
    });
    socket.once("error", () => resolve(false));
  });
}

export async function main(argv: string[]): Promise<void> {
  const engine = argv.find((a) => !a.startsWith("-"));
  const { port } = await serveProvider(new NativeProvider(engine));
  process.stdout.write(`${port}\n`);
  if (engine) {
    const timer = setInterval(async () => {
      if (!(await listening(engine))) process.exit(0);
    }, HEALTH_CHECK_MS);
    timer.unref();
  }
}
