#!/usr/bin/env node
// The command line's entry point: a file that exists before the build, so that npm can link the
// bin when it installs this package as a workspace of a fresh clone; the code is in dist/.
require("../dist/cli.js").main();
