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

// Command is what every host reads from the engine's command line: -version, and the engine's
// address.
type Command struct {
	ShowVersion bool
	EngineAddr  string
}

// Flag is one flag of a host's command line: -name, --name, -name=value or -name value.
type Flag struct {
	Name     string
	Value    string
	HasValue bool
}

// ParseCommand reads a host's command line, Go-style: -version, the engine's address (the first
// positional argument; everything after "--" is positional) and other flags, each handed to onFlag.
// A flag takesValue names takes the next argument as its value unless written -name=value; any
// other flag is boolean unless written so (the engine may pass logging flags a host has no use for).
func ParseCommand(args []string, takesValue func(name string) bool, onFlag func(Flag) error) (Command, error) {
	var cmd Command
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
		f := Flag{Name: strings.TrimLeft(a, "-")}
		if eq := strings.IndexByte(f.Name, '='); eq >= 0 {
			f.Name, f.Value, f.HasValue = f.Name[:eq], f.Name[eq+1:], true
		}
		if f.Name == "version" {
			cmd.ShowVersion = !f.HasValue || f.Value == "true"
			continue
		}
		if !f.HasValue && takesValue(f.Name) {
			if i+1 >= len(args) {
				return cmd, fmt.Errorf("flag -%s needs a value", f.Name)
			}
			i++
			f.Value, f.HasValue = args[i], true
		}
		if err := onFlag(f); err != nil {
			return cmd, err
		}
	}
	if len(positional) > 0 {
		cmd.EngineAddr = positional[0]
	}
	return cmd, nil
}

// Serve runs a host as the engine expects of a language plugin: with -version it prints version;
// else it serves, the port on the first line of stdout, then requests until the engine at
// cmd.EngineAddr goes away (so an orphaned host does not linger). stopping, when given, runs first
// when it does. Failures end the process with a message naming the host.
func Serve(
	name, version string, cmd Command,
	server pulumirpc.LanguageRuntimeServer, options []grpc.ServerOption, stopping func(),
) {
	if cmd.ShowVersion {
		fmt.Println(version)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if cmd.EngineAddr != "" {
		if err := rpcutil.Healthcheck(ctx, cmd.EngineAddr, 5*time.Minute, cancel); err != nil {
			Fail(name, 1, fmt.Errorf("could not start health check: %w", err))
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
		Fail(name, 1, fmt.Errorf("could not start gRPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		Fail(name, 1, err)
	}
}

// Fail ends the process with code, saying why and naming the host (2: a command line it cannot use).
func Fail(name string, code int, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(code)
}
