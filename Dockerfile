# Two stages. `build` installs every dependency and builds the web client (dist/public). The runtime
# image gets only the production dependencies, the server's sources (run as TypeScript by Node 24's
# type stripping: no compile step) and the built client, owned by root and read-only to the app,
# which runs as the image's unprivileged `node` user. The build context is limited by .dockerignore.
#
# Node: package.json pins the app's Node with the `node` package, whose binary `npm ci` installs as
# node_modules/.bin/node (the lockfile's version, for this machine's architecture). That directory
# comes first on PATH, so `node` in the CMD below, in docker-compose.yml's commands and in its health
# check is the pinned binary, as `npm run …` gives it locally. The base image's own Node 24 only runs
# npm; its floating tag brings Debian's security updates.
ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY vite.config.ts tsconfig.json ./
COPY frontend ./frontend
COPY contract ./contract
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY backend ./backend
COPY contract ./contract
COPY db ./db
COPY --from=build /app/dist/public ./dist/public
# The embedded database's folder (PGLITE_DIR=./data/pglite, used when DATABASE_URL is unset) and the
# stored images' (MEDIA_DIR=./data/media) are the only places the app writes: owned by `node`,
# private to it. A named volume mounted on data/media starts out with this owner.
RUN mkdir -m 700 data data/media && chown node:node data data/media
USER node
ENV PATH=/app/node_modules/.bin:$PATH PORT=8080
EXPOSE 8080
CMD ["node", "backend/main.ts"]
