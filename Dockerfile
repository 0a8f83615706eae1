# syntax=docker/dockerfile:1

# Build: a static binary (modernc.org/sqlite is pure Go, so cgo is not needed).
FROM golang:1.26 AS build
WORKDIR /src
# Dependencies first, so a source change does not re-download modules.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# parlor --version and the parlor_build_info metric: docker build --build-arg VERSION=v1.2.3
ARG VERSION=""
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X parlor/server.version=${VERSION}" -o /out/parlor ./cmd/parlor \
	&& mkdir -p /out/data

# Run: no shell, no package manager, uid 65532 (nonroot). A bind-mounted data folder
# must belong to 65532 (sudo chown -R 65532:65532 DIR); parlor says so if it does not.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/parlor /parlor
# An empty /data owned by nonroot, so a fresh named volume is writable. The host key and
# the database are created there on first start: none is baked into the image.
COPY --from=build --chown=65532:65532 /out/data /data
# HTTP listens on all interfaces here (not loopback, the default elsewhere) because
# the container's loopback is unreachable from the host; publish 9222 only to a
# trusted network. Any of these can be overridden with docker run -e or with flags.
ENV PARLOR_DATA=/data \
	PARLOR_LISTEN=:2222 \
	PARLOR_HTTP=0.0.0.0:9222 \
	PARLOR_WEB=:8080
VOLUME ["/data"]
EXPOSE 2222 8080 9222
USER nonroot:nonroot
ENTRYPOINT ["/parlor"]
