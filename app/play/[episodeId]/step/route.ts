// POST /play/<id>/step {action, stepKey?} → the agent seat's view after one turn (server/episodes/seat-step.ts).
import { episodeService } from '@/server/episodes';
import { handleSeatStep } from '@/server/episodes/seat-step';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, { params }: { params: Promise<{ episodeId: string }> }) {
  return handleSeatStep(req, (await params).episodeId, episodeService);
}
