// The native face's entry: `pulumi-resource-mediahost [--logtostderr] [-v=N] [--tracing URL]
// [ENGINE_ADDRESS]`, as the Pulumi engine starts a provider plugin. It serves the provider on a
// free loopback port and prints the port as its first line on stdout (nothing may come before
// it); the engine stops the process when it is done with it.
import { NativeProvider, serveProvider } from "./server";

export async function main(argv: string[]): Promise<void> {
  const engine = argv.find((a) => !a.startsWith("-"));
  const { port } = await serveProvider(new NativeProvider(engine));
  process.stdout.write(`${port}\n`);
}
