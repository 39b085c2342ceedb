// Package hostkit is what the toolchain's two language hosts (../language-host and ../dotnet-host)
// share: reading the engine's command line, serving the LanguageRuntime until the engine goes away,
// the SDK-only host (GetPluginInfo, Handshake and GeneratePackage; every other method refused with a
// message saying so) and GeneratePackage's bind-generate-write cycle.
//
// The two hosts pin different Pulumi versions (dotnet-host the last pkg with the C# generator,
// language-host the CLI's own), so this module requires the older one and uses only what both
// versions have: each host builds it against its own pin (Go takes the higher of the two requirements).
package hostkit

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

// Flag is one flag of a host's command line: -name, --name, -name=value or -name value.
type Flag struct {
	Name     string
	Value    string
	HasValue bool
}

// ScanArgs splits a host's command line, Go-style, into flags and positional arguments (the
// engine's address is the first). A flag takesValue names takes the next argument as its value
// when it is not written -name=value; any other flag is boolean unless written so. Everything after
// "--" is positional.
func ScanArgs(args []string, takesValue func(name string) bool) (flags []Flag, positional []string, err error) {
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
		f := Flag{Name: strings.TrimLeft(a, "-")}
		if eq := strings.IndexByte(f.Name, '='); eq >= 0 {
			f.Name, f.Value, f.HasValue = f.Name[:eq], f.Name[eq+1:], true
		}
		if !f.HasValue && takesValue(f.Name) {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("flag -%s needs a value", f.Name)
			}
			i++
			f.Value, f.HasValue = args[i], true
		}
		flags = append(flags, f)
	}
	return flags, positional, nil
}

// Serve serves a LanguageRuntime as the engine expects of a language plugin: the port on the first
// line of stdout, then requests until the engine at engineAddr goes away (so an orphaned host does
// not linger). stopping, when given, runs first when it does. Failures end the process with a
// message naming the host.
func Serve(
	name, engineAddr string, server pulumirpc.LanguageRuntimeServer, options []grpc.ServerOption, stopping func(),
) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if engineAddr != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddr, 5*time.Minute, cancel); err != nil {
			exit(name, fmt.Errorf("could not start health check: %w", err))
		}
	}
	stop := make(chan bool)
	go func() {
		<-ctx.Done()
		if stopping != nil {
			stopping()
		}
		close(stop)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, server)
			return nil
		},
		Options: options,
	})
	if err != nil {
		exit(name, fmt.Errorf("could not start gRPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		exit(name, err)
	}
}

func exit(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}
