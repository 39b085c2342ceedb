package main

// The SDK-only hosts: this binary, run as pulumi-language-python or pulumi-language-go (a hard link
// under that name, or with -language), serves what `pulumi package gen-sdk` needs of a language
// plugin and nothing else. The Go module proxy serves no module of Pulumi's Python or Go language
// hosts; their code generators are in pkg, which this host already builds against.

import (
	"context"
	"path/filepath"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
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

const languageRuntimeService = "/pulumirpc.LanguageRuntime/"

// sdkOnlyMethods are the LanguageRuntime methods an SDK-only host serves.
var sdkOnlyMethods = map[string]bool{
	languageRuntimeService + "GetPluginInfo":   true,
	languageRuntimeService + "Handshake":       true,
	languageRuntimeService + "GeneratePackage": true,
}

type sdkOnlyHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	language string

	mu         sync.Mutex
	engineAddr string
}

func newSDKOnlyHost(language, engineAddr string) *sdkOnlyHost {
	return &sdkOnlyHost{language: language, engineAddr: engineAddr}
}

func (h *sdkOnlyHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.mu.Lock()
		h.engineAddr = req.GetEngineAddress()
		h.mu.Unlock()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *sdkOnlyHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GeneratePackage is `pulumi package gen-sdk --language python|go`.
func (h *sdkOnlyHost) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return generatePackage(h.language, req)
}

// unimplemented is the error for any other LanguageRuntime method: it says why, where the gRPC
// default would only say "method X not implemented".
func (h *sdkOnlyHost) unimplemented(fullMethod string) error {
	return status.Errorf(codes.Unimplemented,
		"this toolchain's %s host only generates SDKs (pulumi package gen-sdk); %s is not implemented",
		h.language, strings.TrimPrefix(fullMethod, languageRuntimeService))
}

func (h *sdkOnlyHost) refuses(fullMethod string) bool {
	return strings.HasPrefix(fullMethod, languageRuntimeService) && !sdkOnlyMethods[fullMethod]
}

// serverOptions refuse every LanguageRuntime method but sdkOnlyMethods, unary and streaming alike,
// before it reaches a handler. Health checks and reflection are served as usual.
func (h *sdkOnlyHost) serverOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(func(
			ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler,
		) (any, error) {
			if h.refuses(info.FullMethod) {
				return nil, h.unimplemented(info.FullMethod)
			}
			return handler(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(
			srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler,
		) error {
			if h.refuses(info.FullMethod) {
				return h.unimplemented(info.FullMethod)
			}
			return handler(srv, ss)
		}),
	}
}
