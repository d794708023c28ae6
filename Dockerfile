# Build a static binary, then run it as a non-root user with the database
# on a volume. The token comes from the environment:
#   docker run -e DISCORD_TOKEN=... -v tessera-data:/data tessera
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same command .ci/run builds with, so a broken build shows in CI.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tessera ./cmd/tessera \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tessera /usr/local/bin/tessera
# /data belongs to the non-root user, so a new volume mounted there is
# writable by the bot.
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
VOLUME /data
ENV TESSERA_DATABASE=/data/tessera.db
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/tessera"]
CMD ["run"]
