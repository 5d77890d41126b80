# POGS Shop: one image serving the built client and the API on one port.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: npm 11 leaves other platforms' optional packages out of the lockfile
# and npm ci then refuses it (see .ci/run).
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build
# The one place that decides what production holds: the built client, common/, server/ and
# migrations/ without tests, the test harness or the local-mode wiring; no emulator, e2e or bench.
RUN npx tsx scripts/stage-production.ts /stage

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=build /stage/package.json /stage/package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY --from=build /stage ./
EXPOSE 3000
USER node
CMD ["npx", "tsx", "server/main.ts"]
