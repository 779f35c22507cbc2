# Production image: the API serving the built web app.
# Node 22 LTS, which every dependency supports: MikroORM 7 and a few others declare Node >= 22.17, and the node:22 tag
# has been past 22.17 since mid-2025. Development and tests run on Node 20.19+ too (README, "Node versions").
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
EXPOSE 4000
CMD ["npm", "run", "start", "-w", "api"]
