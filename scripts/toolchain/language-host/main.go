// Command pulumi-language-nodejs is a minimal Node.js language host for the Pulumi engine.
//
// Why it exists: the Go module proxy we can reach serves no version of Pulumi's own
// sdk/nodejs/cmd/pulumi-language-nodejs module, so the toolchain builds this one instead. It covers
// what this project and its users' workflows need, each done the way Pulumi's own host does it:
// running a program through @pulumi/pulumi's cmd/run (host.go), running policy packs and plugins
// written in Node.js (RunPlugin, plugin.go), reporting the provider plugins that npm packages in
// node_modules name (GetRequiredPackages, packages.go), writing TypeScript from PCL for
// `pulumi import --generate-code` and `pulumi convert` (codegen.go) and generating Node.js SDKs for
// `pulumi package gen-sdk` (sdkgen.go).
//
// Under the name pulumi-language-python or pulumi-language-go (provision.sh links it so), or with
// -language python|go, it is instead an SDK-only host for that language: it serves
// `pulumi package gen-sdk --language python|go` and refuses everything else (sdkonly.go).
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

type cliArgs struct {
	language    string // nodejs, or an SDK-only language (sdkOnlyLanguages)
	showVersion bool
	tracing     string
	engineAddr  string
}

// parseArgs accepts Go-style flags (-x, --x, -x=v, -x v). Unknown flags are tolerated because the
// engine may pass logging flags (--logtostderr, -v=N) that this host has no use for.
// The language is the binary's (argv0, see languageFromName) unless -language says otherwise.
func parseArgs(argv0 string, args []string) (cliArgs, error) {
	out := cliArgs{language: languageFromName(argv0)}
	runtime := ""
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
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, value, hasValue = name[:eq], name[eq+1:], true
		}
		takeValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag -%s needs a value", name)
			}
			i++
			return args[i], nil
		}
		switch name {
		case "version":
			out.showVersion = !hasValue || value == "true"
		case "tracing":
			v, err := takeValue()
			if err != nil {
				return out, err
			}
			out.tracing = v
		case "language":
			v, err := takeValue()
			if err != nil {
				return out, err
			}
			if v != "nodejs" && !sdkOnlyLanguages[v] {
				return out, fmt.Errorf("unsupported language %q: this host serves nodejs, python and go", v)
			}
			out.language = v
		case "runtime":
			v, err := takeValue()
			if err != nil {
				return out, err
			}
			runtime = v
		case "root", "typescript", "tsconfig", "nodeargs", "packagemanager":
			// Older engines pass these as flags; the same settings now arrive in ProgramInfo.Options.
			if _, err := takeValue(); err != nil {
				return out, err
			}
		default:
			// Unknown flag: treat as boolean unless written -x=v.
		}
	}
	if runtime != "" && runtime != out.language {
		return out, fmt.Errorf("unsupported runtime %q: this host serves %s", runtime, out.language)
	}
	if len(positional) > 0 {
		out.engineAddr = positional[0]
	}
	return out, nil
}

func main() {
	args, err := parseArgs(os.Args[0], os.Args[1:])
	name := "pulumi-language-" + args.language
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

	stop := make(chan bool)
	var server pulumirpc.LanguageRuntimeServer
	var options []grpc.ServerOption
	if args.language == "nodejs" {
		host := newLanguageHost(args.engineAddr, args.tracing)
		server = host
		go func() {
			<-ctx.Done()
			host.interruptAll()
			close(stop)
		}()
	} else {
		host := newSDKOnlyHost(args.language, args.engineAddr)
		server, options = host, host.serverOptions()
		go func() {
			<-ctx.Done()
			close(stop)
		}()
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, server)
			return nil
		},
		Options: options,
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
