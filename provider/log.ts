// Progress and warnings from inside the dynamic-provider process. Pulumi's runtime delivers
// log messages to the engine (shown by the CLI) only when it knows the engine's address; the
// dynamic provider is started with that address as its first argument, so `attachToEngine`
// hands it over. Without an engine (unit tests, tools) messages go to stderr.
import * as pulumi from "@pulumi/pulumi";

let attached = false;

/** Lets `pulumi.log` reach the engine from the dynamic-provider process. */
export function attachToEngine(): void {
  if (attached) return;
  attached = true;
  const engine = process.argv[2];
  if (!process.env.PULUMI_NODEJS_ENGINE && engine && /^[\w.-]+:\d+$/.test(engine)) {
    process.env.PULUMI_NODEJS_ENGINE = engine;
  }
}

export const log = {
  info(message: string): void {
    void pulumi.log.info(message).catch(() => process.stderr.write(`info: ${message}\n`));
  },
  warn(message: string): void {
    void pulumi.log.warn(message).catch(() => process.stderr.write(`warning: ${message}\n`));
  },
};
