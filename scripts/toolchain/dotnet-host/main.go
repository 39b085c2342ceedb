// Command pulumi-language-dotnet is an SDK-only .NET language host for the Pulumi engine: it serves
// `pulumi package gen-sdk --language dotnet` (GeneratePackage, host.go) and refuses everything
// else, saying so.
//
// Why it exists, and why in a module of its own: the Go module proxy we can reach serves no version
// of Pulumi's pulumi-language-dotnet, and Pulumi's pkg module dropped its C# code generator
// (codegen/dotnet) after v3.228.0, when the .NET host took a copy of it. This module builds against
// pkg and sdk v3.228.0, the last release with that generator; the Node.js, Python and Go hosts
// (../language-host) build against the CLI's own version. What the two hosts share is in
// ../hostkit, which builds against either.
package main

import (
	"fmt"
	"os"

	"pulumi-mediahost.local/toolchain/hostkit"
)

// version is overridden at build time (-ldflags "-X main.version=...") by provision.sh.
var version = "0.0.0-dev"

const name = "pulumi-language-dotnet"

type cliArgs struct {
	showVersion bool
	engineAddr  string
}

// parseArgs reads the engine's command line: the engine's address first. Flags the engine may pass
// (--logtostderr, -v=N, --tracing URL, -root DIR) are of no use to a host that only generates
// code: they are skipped.
func parseArgs(args []string) (cliArgs, error) {
	var out cliArgs
	flags, positional, err := hostkit.ScanArgs(args, func(flag string) bool {
		return flag == "tracing" || flag == "root" || flag == "runtime"
	})
	if err != nil {
		return out, err
	}
	for _, f := range flags {
		switch f.Name {
		case "version":
			out.showVersion = !f.HasValue || f.Value == "true"
		case "runtime":
			if f.Value != "dotnet" {
				return out, fmt.Errorf("unsupported runtime %q: this host serves dotnet", f.Value)
			}
		}
	}
	if len(positional) > 0 {
		out.engineAddr = positional[0]
	}
	return out, nil
}

func main() {
	args, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
	if args.showVersion {
		fmt.Println(version)
		return
	}
	host := newHost(args.engineAddr)
	hostkit.Serve(name, args.engineAddr, host, host.ServerOptions(), nil)
}
