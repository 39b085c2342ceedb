// Progress and warnings from inside the dynamic-provider process. That process has no engine
// connection of its own, so Pulumi's runtime writes these to stderr, which the CLI shows under
// the stack ("warning: [runtime] ..."). Outside Pulumi (tests, tools) they go to the console too.
import * as pulumi from "@pulumi/pulumi";

export const log = {
  info(message: string): void {
    void pulumi.log.info(message);
  },
  warn(message: string): void {
    void pulumi.log.warn(message);
  },
};
