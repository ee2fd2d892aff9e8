import { Suspense } from 'react';
import { CompareView } from '@/components/episodes/CompareView';

export const dynamic = 'force-dynamic';

export default function ComparePage() {
  return (
    <Suspense>
      <CompareView />
    </Suspense>
  );
}
