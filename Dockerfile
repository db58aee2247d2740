# syntax=docker/dockerfile:1
#
# One image for the gateway and every service; the command picks which one runs:
#   docker run IMAGE node services/settings/dist/main.js
#   docker run IMAGE node gateway/dist/main.js          (the default command)
#   docker run -e DATABASE_URL=... IMAGE node services/settings/dist/main.js migrate
#                                                       (applies that service's migrations and exits 0, or 1)
#
# Stages: manifests (package.json files only, for layer caching) -> build (all dependencies, turbo build)
#         -> prod-deps (production dependencies of the runtime workspaces only) -> runtime.
# The runtime image has no devDependencies, no testkit/devstack (so no embedded-postgres), no npm,
# runs as uid 10001 and writes nothing outside /tmp, so it runs with a read-only root filesystem.

# Node 24, the active LTS line (Node 20 left support on 2026-04-30); CI runs every test on Node 20 and on Node 24.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    TURBO_TELEMETRY_DISABLED=1
WORKDIR /app

# ---------------------------------------------------------------------------------------------------------
# Only the manifests: this stage re-runs on every source change, but its output changes only when a
# package.json or the lockfile does, so the `npm ci` layer below stays cached.
FROM base AS manifests
COPY . /src
RUN node /src/deploy/docker/workspaces.js manifests /src /out

# ---------------------------------------------------------------------------------------------------------
FROM base AS build
COPY --from=manifests /out/ ./
# Lockfiles written on the team's machines can lack other platforms' optional builds (turbo, @swc/core,
# @bufbuild/buf): `npm ci` then refuses with "Missing: ... from lock file". `npm install` resolves the
# same versions from the lockfile and adds what this platform needs.
RUN --mount=type=cache,target=/root/.npm \
    npm ci || { echo "npm ci failed (lockfile platform entries): falling back to npm install" >&2; npm install; }
COPY . .
# contracts runs buf + ts-proto (offline), then every workspace compiles into its own dist/.
RUN ./node_modules/.bin/turbo run build \
 && node deploy/docker/workspaces.js runtime /app /runtime

# ---------------------------------------------------------------------------------------------------------
# Production dependencies of services/*, gateway and the workspaces they depend on (kit, contracts):
# workspaces.js rewrote the manifests without devDependencies, testkit and devstack; versions come
# from the lockfile.
FROM base AS prod-deps
COPY --from=build /runtime/manifests/ ./
COPY deploy/docker/workspaces.js /usr/local/lib/platform/workspaces.js
RUN --mount=type=cache,target=/root/.npm \
    npm install --omit=dev --no-audit --no-fund \
 && node /usr/local/lib/platform/workspaces.js verify /app

# ---------------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# npm, npx, corepack and yarn are not needed to run `node ...`: removing them shrinks the attack surface.
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid 10001 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin app \
 && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
           /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
           /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
ENV NODE_ENV=production \
    HOME=/tmp \
    TMPDIR=/tmp
WORKDIR /app
# Files stay owned by root and read-only for uid 10001; the only writable place is /tmp
# (an emptyDir in Kubernetes, a tmpfs in compose).
COPY --from=prod-deps /app/ ./
COPY --from=build /runtime/app/ ./
COPY deploy/docker/healthcheck.js ./deploy/docker/healthcheck.js
USER 10001:10001
EXPOSE 50051 8080 8081 9464
STOPSIGNAL SIGTERM
CMD ["node", "gateway/dist/main.js"]
