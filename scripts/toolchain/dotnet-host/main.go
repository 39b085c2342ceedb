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

// parseArgs reads the engine's command line. Flags the engine may pass (--logtostderr, -v=N,
// --tracing URL, -root DIR) are of no use to a host that only generates code: they are skipped.
func parseArgs(args []string) (hostkit.Command, error) {
	return hostkit.ParseCommand(args, func(flag string) bool {
		return flag == "tracing" || flag == "root" || flag == "runtime"
	}, func(f hostkit.Flag) error {
		if f.Name == "runtime" && f.Value != "dotnet" {
			return fmt.Errorf("unsupported runtime %q: this host serves dotnet", f.Value)
		}
		return nil
	})
}

func main() {
	cmd, err := parseArgs(os.Args[1:])
	if err != nil {
		hostkit.Fail(name, 2, err)
	}
	host := newHost(cmd.EngineAddr)
	hostkit.Serve(name, version, cmd, host, host.ServerOptions(), nil)
}
