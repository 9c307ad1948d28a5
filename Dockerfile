# The Warden server image (deploy/compose.yaml builds it): `docker build -t warden .`, then
# `docker run -p 8080:8080 -v warden-data:/data warden` for one process on SQLite, or see docs/cluster.md.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
# No install scripts: the test-only native packages (bedrock's RakNet) are not built; the one the server needs is, below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src ./src
# The dashboard: Vite bundles web/ into dist/web (its packages are dev dependencies, pruned afterwards).
COPY web ./web
RUN npm run build && npm rebuild better-sqlite3 && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 WARDEN_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The server reads its version from package.json and serves docs/ (llms.txt, the reference pages).
COPY package.json warden.example.yaml ./
COPY docs ./docs
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM stops it cleanly within 10 s (docker stop waits 10 s by default).
STOPSIGNAL SIGTERM
CMD ["node", "dist/cli/index.js", "serve"]
