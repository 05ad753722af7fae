# One image for web and worker (docker-compose.yml picks the command). Needs internet at build time:
# Prisma fetches its native engine here, unlike on the offline dev machines (see prisma.config.ts).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends openssl ca-certificates && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 NEXT_TELEMETRY_DISABLED=1
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx next build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
RUN apt-get update && apt-get install -y --no-install-recommends openssl ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /app /app
EXPOSE 3000
CMD ["sh", "-c", "npx prisma migrate deploy && node --import tsx --conditions=react-server prisma/seed.ts && exec node node_modules/next/dist/bin/next start -p 3000"]
