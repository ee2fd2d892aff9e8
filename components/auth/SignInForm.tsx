'use client';
// The admin signs in with the admin token (auth on); the token itself is never stored in the browser.
import { useState, useTransition } from 'react';
import { attempt, useTRPCClient } from '@/lib/trpc';
import { Button, Card, CardHeader } from '@/components/ui/primitives';

export function SignInForm({ next }: { next: string }) {
  const trpc = useTRPCClient();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <Card className="mx-auto mt-10 max-w-md">
      <CardHeader title="Sign in as admin" />
      <form
        className="space-y-3 p-4"
        onSubmit={(e) => {
          e.preventDefault();
          startTransition(async () => {
            const res = await attempt(trpc.auth.signIn.mutate({ token }));
            if (!res.ok) setError(res.error ?? 'sign-in failed');
            // a full load: the router's cached prefetches of admin pages still hold the redirect to /login
            else window.location.assign(next);
          });
        }}
      >
        <label htmlFor="admin-token" className="block text-sm font-medium text-slate-700">
          Admin token (ECOMRLVE_ADMIN_TOKEN)
        </label>
        <input
          id="admin-token"
          type="password"
          autoComplete="current-password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm"
        />
        {error && (
          <p className="text-sm text-rose-700" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={pending || token === ''}>
          Sign in
        </Button>
      </form>
    </Card>
  );
}
