import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native module (better-sqlite3) and its Prisma adapter must be required at runtime, not bundled.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3'],
  poweredByHeader: false,
};

export default nextConfig;
