# syntax=docker/dockerfile:1
# The cairn node as a container image: docs/docker.md explains how to build and run it.
#
#   docker build -t cairn .
#   docker run --init -p 8080:8080 -v cairn-data:/data cairn
#
# Two stages. The build stage installs every dependency (compiling the native Poseidon2 addon with
# node-gyp, which needs g++, make and python3), compiles the rollup's Solidity contracts into
# src/l1/generated/ and the TypeScript into dist/ (`npm ci` runs the package's install and prepare
# scripts), fetches the protocol contract artifacts the node loads at start, and drops the dev
# dependencies. The runtime stage holds only what `cairn start` reads.
#
# Debian bookworm, not Alpine: the embedded L1 is the anvil binary of @foundry-rs/anvil's platform
# package (anvil-linux-amd64 or anvil-linux-arm64), linked against glibc (2.35 or later) and libgcc_s.

ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends g++ make python3 ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json biome.json binding.gyp ./
COPY native ./native
COPY scripts ./scripts
COPY src ./src
# install: the native addon (build/Release/poseidon2.node); prepare: contracts and dist/.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
# build-native.mjs only warns when the addon cannot be built; an image without it would be ~10x
# slower at hashing, so its absence fails the build here.
RUN test -f build/Release/poseidon2.node \
  && test -f dist/cli/main.js \
  && test -f dist/l1/generated/artifacts.js
# The pinned, integrity-checked contract artifacts from the npm registry, into .cache/artifacts/:
# the node needs the AuthRegistry's at every start, so the image starts without network access.
RUN --mount=type=cache,target=/root/.npm node scripts/fetch-artifacts.mjs
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
# The data directory is a setting (dataDir) rather than a flag of CMD, so that `docker run cairn
# start --clock instant` keeps it; a --data-dir flag still wins over it.
ENV NODE_ENV=production \
  CAIRN_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build/Release/poseidon2.node ./build/Release/poseidon2.node
COPY --from=build /app/scripts/fetch-artifacts.mjs ./scripts/fetch-artifacts.mjs
COPY --from=build /app/scripts/follow.mjs ./scripts/follow.mjs
COPY --from=build /app/.cache/artifacts ./.cache/artifacts
# The data directory belongs to the unprivileged user the node runs as (node, uid 1000, from the
# base image); a named volume mounted there starts with this ownership.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# Public JSON-RPC, admin JSON-RPC (on 127.0.0.1 inside the container unless CAIRN_ADMIN_HOST and
# CAIRN_ADMIN_API_KEY are set), P2P. The embedded L1 listens on a loopback port of its own and is
# not reachable from outside the container.
EXPOSE 8080 8880 40400
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.CAIRN_PORT || 8080) + '/status').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["start"]
