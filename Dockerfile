# POGS Shop: one image serving the built client and the API on one port, the server compiled to
# JavaScript (dist-server/) and run by plain node.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: npm 11 leaves other platforms' optional packages out of the lockfile
# and npm ci then refuses it (see .ci/run).
RUN npm install --no-audit --no-fund
COPY . .
# The client (dist/), its server-rendering entry (dist-ssr/) and the compiled server (dist-server/).
RUN npm run build
# The one place that decides what production holds: the compiled server as main, doctor and
# migrate reach it (no local-mode code, emulator, test or source), dist/, dist-ssr/ and the manifests.
RUN npx tsx scripts/stage-production.ts /stage

FROM node:24-bookworm-slim
# tini as PID 1: forwards SIGTERM to node (which shuts down gracefully) and reaps zombies.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY --from=build /stage/package.json /stage/package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /stage ./
EXPOSE 3000
USER node
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/live', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# Exec form: node is tini's child and gets its signals, no shell or npm in between.
# `docker run … node dist-server/doctor.js` (or migrate.js) runs the other entries.
CMD ["node", "dist-server/main.js"]
