// Every run the store knows (trainer, batch, curriculum, import), each linked to its run view.
import Link from 'next/link';
import { Card, CardHeader } from '@/components/ui/primitives';
import { RUN_KINDS, type RunOption } from '@/server/inspector/run-keys';
import { runViewUrl } from './urls';

export function RunLinks({ runs }: { runs: RunOption[] }) {
  return (
    <Card>
      <CardHeader title="Run views: training, batch, curriculum and imported runs" />
      {runs.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">No runs yet.</p>
      ) : (
        <dl className="grid gap-x-6 gap-y-2 px-4 py-3 text-sm sm:grid-cols-[auto_1fr]" data-testid="run-links">
          {RUN_KINDS.filter((k) => runs.some((r) => r.kind === k)).map((k) => (
            <div key={k} className="contents">
              <dt className="font-medium text-slate-500">{k}</dt>
              <dd className="flex flex-wrap gap-x-4 gap-y-1">
                {runs
                  .filter((r) => r.kind === k)
                  .map((r) => (
                    <Link
                      key={r.key}
                      href={runViewUrl(r.key)}
                      className="text-sky-700 underline"
                      data-testid="run-link"
                    >
                      {r.name}
                    </Link>
                  ))}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
