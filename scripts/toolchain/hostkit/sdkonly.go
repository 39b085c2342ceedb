package hostkit

import (
	"context"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const languageRuntimeService = "/pulumirpc.LanguageRuntime/"

// sdkOnlyMethods are the LanguageRuntime methods an SDK-only host serves.
var sdkOnlyMethods = map[string]bool{
	languageRuntimeService + "GetPluginInfo":   true,
	languageRuntimeService + "Handshake":       true,
	languageRuntimeService + "GeneratePackage": true,
}

// SDKOnlyHost is a language host that only generates SDKs (`pulumi package gen-sdk`), with
// generate; it refuses every other LanguageRuntime method, saying so (ServerOptions).
type SDKOnlyHost struct {
	*Plugin

	language string
	generate func(context.Context, *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error)
}

// NewSDKOnlyHost is the SDK-only host for language, reporting version as its own.
func NewSDKOnlyHost(
	language, version, engineAddr string,
	generate func(context.Context, *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error),
) *SDKOnlyHost {
	return &SDKOnlyHost{Plugin: NewPlugin(version, engineAddr), language: language, generate: generate}
}

// GeneratePackage is `pulumi package gen-sdk --language <language>`.
func (h *SDKOnlyHost) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return h.generate(ctx, req)
}

// unimplemented is the error for any other LanguageRuntime method: it says why, where the gRPC
// default would only say "method X not implemented".
func (h *SDKOnlyHost) unimplemented(fullMethod string) error {
	return status.Errorf(codes.Unimplemented,
		"this toolchain's %s host only generates SDKs (pulumi package gen-sdk); %s is not implemented",
		h.language, strings.TrimPrefix(fullMethod, languageRuntimeService))
}

func refused(fullMethod string) bool {
	return strings.HasPrefix(fullMethod, languageRuntimeService) && !sdkOnlyMethods[fullMethod]
}

// ServerOptions refuse every LanguageRuntime method but the three served, unary and streaming
// alike, before it reaches a handler. Health checks and reflection are served as usual.
func (h *SDKOnlyHost) ServerOptions() []grpc.ServerOption {
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
