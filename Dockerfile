# POGS Shop: one image serving the built client and the API on one port.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: npm 11 leaves other platforms' optional packages out of the lockfile
# and npm ci then refuses it (see .ci/run).
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY common ./common
COPY server ./server
COPY migrations ./migrations
EXPOSE 3000
USER node
CMD ["npx", "tsx", "server/main.ts"]
