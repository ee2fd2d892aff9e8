import { SignInForm } from '@/components/auth/SignInForm';

export const dynamic = 'force-dynamic';

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const sp = await searchParams;
  const next = Array.isArray(sp.next) ? sp.next[0] : sp.next;
  // only local paths, so the form cannot be used to redirect elsewhere
  return <SignInForm next={next && /^\/[A-Za-z0-9/_-]*$/.test(next) ? next : '/'} />;
}
