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
	"fmt"
	"os"

	"pulumi-mediahost.local/toolchain/hostkit"
)

// version is overridden at build time (-ldflags "-X main.version=...") by provision.sh.
var version = "0.0.0-dev"

type cliArgs struct {
	hostkit.Command
	language string // nodejs, or an SDK-only language (sdkOnlyLanguages)
	tracing  string
}

// flagsWithValues are the flags that take a value.
var flagsWithValues = map[string]bool{
	"tracing": true, "language": true, "runtime": true,
	// Older engines pass these as flags; the same settings now arrive in ProgramInfo.Options.
	"root": true, "typescript": true, "tsconfig": true, "nodeargs": true, "packagemanager": true,
}

// parseArgs reads the engine's command line. The language is the binary's (argv0, see
// languageFromName) unless -language says otherwise.
func parseArgs(argv0 string, args []string) (cliArgs, error) {
	out := cliArgs{language: languageFromName(argv0)}
	runtime := ""
	takesValue := func(name string) bool { return flagsWithValues[name] }
	cmd, err := hostkit.ParseCommand(args, takesValue, func(f hostkit.Flag) error {
		switch f.Name {
		case "tracing":
			out.tracing = f.Value
		case "language":
			if f.Value != "nodejs" && !sdkOnlyLanguages[f.Value] {
				return fmt.Errorf("unsupported language %q: this host serves nodejs, python and go", f.Value)
			}
			out.language = f.Value
		case "runtime":
			runtime = f.Value
		}
		return nil
	})
	out.Command = cmd
	if err == nil && runtime != "" && runtime != out.language {
		err = fmt.Errorf("unsupported runtime %q: this host serves %s", runtime, out.language)
	}
	return out, err
}

func main() {
	args, err := parseArgs(os.Args[0], os.Args[1:])
	name := "pulumi-language-" + args.language
	if err != nil {
		hostkit.Fail(name, 2, err)
	}
	if args.language != "nodejs" {
		host := newSDKOnlyHost(args.language, args.EngineAddr)
		hostkit.Serve(name, version, args.Command, host, host.ServerOptions(), nil)
		return
	}
	host := newLanguageHost(args.EngineAddr, args.tracing)
	hostkit.Serve(name, version, args.Command, host, nil, host.interruptAll)
}
