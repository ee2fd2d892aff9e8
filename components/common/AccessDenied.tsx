// Shown when auth is on and the request lacks the credential a page needs.
import Link from 'next/link';
import { Card } from '@/components/ui/primitives';

export function AccessDenied({ message }: { message: string }) {
  return (
    <Card className="mx-auto mt-10 max-w-xl space-y-3 px-6 py-5" data-testid="access-denied">
      <h1 className="text-lg font-semibold text-slate-900">Not allowed here</h1>
      <p className="text-sm text-slate-700">{message}</p>
      <p className="flex gap-4 text-sm">
        <Link href="/login" className="text-sky-700 underline">
          Sign in as admin
        </Link>
        <Link href="/" className="text-sky-700 underline">
          Back to the start page
        </Link>
      </p>
    </Card>
  );
}
