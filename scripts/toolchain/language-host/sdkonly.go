package main

// The SDK-only hosts: this binary, run as pulumi-language-python or pulumi-language-go (a hard link
// under that name, or with -language), serves what `pulumi package gen-sdk` needs of a language
// plugin and nothing else (../hostkit's SDKOnlyHost, as the .NET host). The Go module proxy serves
// no module of Pulumi's Python or Go language hosts; their code generators are in pkg, which this
// host already builds against.

import (
	"context"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"pulumi-mediahost.local/toolchain/hostkit"
)

// sdkOnlyLanguages are the languages this binary generates SDKs for without running programs.
var sdkOnlyLanguages = map[string]bool{"python": true, "go": true}

// languageFromName is the language a binary named like Pulumi's language plugins serves
// (pulumi-language-<language>); nodejs for any other name (e.g. `go build`'s language-host).
func languageFromName(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if lang, ok := strings.CutPrefix(base, "pulumi-language-"); ok && (lang == "nodejs" || sdkOnlyLanguages[lang]) {
		return lang
	}
	return "nodejs"
}

// newSDKOnlyHost is the SDK-only host for language (one of sdkOnlyLanguages).
func newSDKOnlyHost(language, engineAddr string) *hostkit.SDKOnlyHost {
	return hostkit.NewSDKOnlyHost(language, version, engineAddr,
		func(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
			return hostkit.GeneratePackage(ctx, req, sdkGenerators[language])
		})
}
