import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native module (better-sqlite3), pg and their Prisma adapters must be required at runtime, not bundled.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', 'pg', '@prisma/adapter-pg'],
  poweredByHeader: false,
  // one action is ≤ 64 KB; anything much larger is refused (413) before it is parsed
  experimental: { serverActions: { bodySizeLimit: '512kb' } },
};

export default nextConfig;
