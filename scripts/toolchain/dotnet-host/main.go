// Command pulumi-language-dotnet is an SDK-only .NET language host for the Pulumi engine: it serves
// `pulumi package gen-sdk --language dotnet` (GeneratePackage, host.go) and refuses everything
// else, saying so.
//
// Why it exists, and why in a module of its own: the Go module proxy we can reach serves no version
// of Pulumi's pulumi-language-dotnet, and Pulumi's pkg module dropped its C# code generator
// (codegen/dotnet) after v3.228.0, when the .NET host took a copy of it. This module builds against
// pkg and sdk v3.228.0, the last release with that generator; the Node.js, Python and Go hosts
// (../language-host) build against the CLI's own version.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// version is overridden at build time (-ldflags "-X main.version=...") by provision.sh.
var version = "0.0.0-dev"

const name = "pulumi-language-dotnet"

type cliArgs struct {
	showVersion bool
	engineAddr  string
}

// parseArgs accepts Go-style flags (-x, --x, -x=v, -x v) and the engine's address as the first
// positional argument. Flags the engine may pass (--logtostderr, -v=N, --tracing URL, -root DIR)
// are of no use to a host that only generates code: they are skipped.
func parseArgs(args []string) (cliArgs, error) {
	var out cliArgs
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flag := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if eq := strings.IndexByte(flag, '='); eq >= 0 {
			flag, value, hasValue = flag[:eq], flag[eq+1:], true
		}
		switch flag {
		case "version":
			out.showVersion = !hasValue || value == "true"
		case "tracing", "root", "runtime":
			if !hasValue {
				if i+1 >= len(args) {
					return out, fmt.Errorf("flag -%s needs a value", flag)
				}
				i++
				value = args[i]
			}
			if flag == "runtime" && value != "dotnet" {
				return out, fmt.Errorf("unsupported runtime %q: this host serves dotnet", value)
			}
		default:
			// Unknown flag: treat as boolean unless written -x=v.
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

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if args.engineAddr != "" {
		// Stop serving when the engine goes away, so an orphaned host does not linger.
		if err := rpcutil.Healthcheck(ctx, args.engineAddr, 5*time.Minute, cancel); err != nil {
			fmt.Fprintf(os.Stderr, "%s: could not start health check: %v\n", name, err)
			os.Exit(1)
		}
	}

	host := newHost(args.engineAddr)
	stop := make(chan bool)
	go func() {
		<-ctx.Done()
		close(stop)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: host.serverOptions(),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: could not start gRPC server: %v\n", name, err)
		os.Exit(1)
	}

	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)

	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}
