package main

// GeneratePackage as Pulumi's .NET host does it: bind the schema the engine sent against the
// engine's schema loader (dangling references allowed), return binding errors as diagnostics, else
// write what the C# code generator returns (overlay files and local dependencies included) under
// the requested directory. One addition: the package's icon, which the generator downloads, is
// resolved offline (logo.go). Every other LanguageRuntime method is refused with a message saying
// what this host is for.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

const languageRuntimeService = "/pulumirpc.LanguageRuntime/"

// servedMethods are the LanguageRuntime methods this host serves.
var servedMethods = map[string]bool{
	languageRuntimeService + "GetPluginInfo":   true,
	languageRuntimeService + "Handshake":       true,
	languageRuntimeService + "GeneratePackage": true,
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu         sync.Mutex
	engineAddr string
}

func newHost(engineAddr string) *host {
	return &host{engineAddr: engineAddr}
}

func (h *host) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.mu.Lock()
		h.engineAddr = req.GetEngineAddress()
		h.mu.Unlock()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GeneratePackage is `pulumi package gen-sdk --language dotnet`.
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader at %q: %w", req.GetLoaderTarget(), err)
	}
	defer loader.Close()
	return generatePackage(ctx, req, schema.NewCachedLoader(loader))
}

// generatePackage is GeneratePackage with a loader of the caller's, so tests can bind against
// schemas of their own.
func generatePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader,
) (*pulumirpc.GeneratePackageResponse, error) {
	if req.GetDirectory() == "" {
		return nil, errors.New("GeneratePackage needs a directory to write to")
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("reading the schema the engine sent: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	// The generator downloads the package's icon (logo.go).
	diags = append(diags, installLogoTransport().resolveLogo(ctx, pkg.LogoURL)...)
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	files, err := dotnetgen.GeneratePackage(
		"pulumi-language-dotnet", pkg, req.GetExtraFiles(), req.GetLocalDependencies())
	if err != nil {
		return nil, err
	}
	if err := writeSDKFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiags}, nil
}

// writeSDKFiles writes files under dir with the modes Pulumi's hosts use (0700 directories, 0600
// files), refusing a name that would land outside dir (an overlay file's name comes from the user).
func writeSDKFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rel := filepath.Clean(filepath.FromSlash(name))
		if filepath.IsAbs(rel) || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("refusing to write %q: not a path inside the SDK's directory", name)
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
			return fmt.Errorf("could not create output directory %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(out, files[name], 0o600); err != nil {
			return fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return nil
}

func (h *host) unimplemented(fullMethod string) error {
	return status.Errorf(codes.Unimplemented,
		"this toolchain's dotnet host only generates SDKs (pulumi package gen-sdk); %s is not implemented",
		strings.TrimPrefix(fullMethod, languageRuntimeService))
}

func refused(fullMethod string) bool {
	return strings.HasPrefix(fullMethod, languageRuntimeService) && !servedMethods[fullMethod]
}

// serverOptions refuse every LanguageRuntime method but servedMethods, unary and streaming alike,
// before it reaches a handler (the gRPC default would only say "method X not implemented"). Health
// checks and reflection are served as usual.
func (h *host) serverOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(func(
			ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler,
		) (any, error) {
			if refused(info.FullMethod) {
				return nil, h.unimplemented(info.FullMethod)
			}
			return handler(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(
			srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler,
		) error {
			if refused(info.FullMethod) {
				return h.unimplemented(info.FullMethod)
			}
			return handler(srv, ss)
		}),
	}
}
