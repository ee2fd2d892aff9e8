// Runs once when the server starts: puts the body-size guard in front of Next's HTTP server
// (oversized uploads refused before anything reads them), and gives a clear message when the
// database cannot be used (missing directory that cannot be created, read-only file, or no tables yet).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { installRequestGuard } = await import('@/server/lib/request-guard');
  const { serveSeatStep } = await import('@/server/episodes/seat-step');
  const { episodeService } = await import('@/server/episodes');
  // POST /play/<id>/step is served before Next: its request handling cost more CPU than the step
  // (docs/security.md, "Web path speed"); app/play/[episodeId]/step/route.ts serves it otherwise.
  installRequestGuard({ direct: (req, res) => serveSeatStep(req, res, episodeService) });
  const { prisma, DEFAULT_DATABASE_URL } = await import('@/server/db');
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  try {
    await prisma.episode.count();
  } catch (e) {
    const text = String((e as Error)?.message ?? e);
    const hint = /no such table|does not exist in the current database/i.test(text)
      ? 'its tables are missing: run `npx prisma migrate deploy` (npm run app does it)'
      : /readonly|read-only/i.test(text)
        ? 'it is read-only for this process'
        : 'it cannot be opened';
    console.error(
      `[ecomrlve] the database ${url} is unusable: ${hint}. Pages that read episodes will fail until this is fixed.`,
    );
  }
}
